"""Under no_grad nothing is recorded; the results are constants afterwards."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    rec("is_grad_enabled outside", B.is_grad_enabled())
    with B.no_grad():
        rec("is_grad_enabled inside", B.is_grad_enabled())
        y = w * 2.25
        rec("w.requires_grad inside", w.requires_grad)
        n = B.value(0.5, requires_grad=True)
        m = w.exp()
        k = -w
    rec("is_grad_enabled after", B.is_grad_enabled())
    rec("y", y)
    rec("y.requires_grad", y.requires_grad)
    rec("y.grad_fn", y.grad_fn)
    rec("y.is_leaf", y.is_leaf)
    rec("m.grad_fn", m.grad_fn)
    rec("k.requires_grad", k.requires_grad)
    rec("n made inside: requires_grad", n.requires_grad)
    rec("n.is_leaf", n.is_leaf)
    rec("y.backward()", lambda: y.backward())
    z = y * w
    z.backward()
    rec("w.grad (y is a constant)", w.grad)
    with B.no_grad():
        inner = n * w
        rec("inner.requires_grad", inner.requires_grad)
    rec("nested value after block", (n * w).grad_fn)
