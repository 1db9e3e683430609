"""retain_grad on intermediates and on the output; a no-op on a leaf."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = x + w
    b = w * w + 0.5
    y = a * b
    rec("a.retains_grad before", a.retains_grad)
    rec("a.retain_grad()", lambda: a.retain_grad())
    rec("y.retain_grad()", lambda: y.retain_grad())
    rec("w.retain_grad() on a leaf", lambda: w.retain_grad())
    rec("a.retains_grad", a.retains_grad)
    rec("y.retains_grad", y.retains_grad)
    rec("b.retains_grad", b.retains_grad)
    rec("w.retains_grad (leaf)", w.retains_grad)
    rec("a.grad before backward", a.grad)
    y.backward()
    rec("a.grad", a.grad)
    rec("y.grad", y.grad)
    rec("b.grad (not retained)", b.grad)
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)
    rec("a.grad.requires_grad", a.grad.requires_grad)
    rec("a.grad.is_leaf", a.grad.is_leaf)
    rec("a.grad.grad_fn", a.grad.grad_fn)
    rec("a.retain_grad() twice", lambda: a.retain_grad())
    rec("a.retains_grad after twice", a.retains_grad)
