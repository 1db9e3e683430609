"""Reading .grad of a non-leaf returns None and warns on every access; leaves never warn."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w * x
    y = a.tanh()
    rec("a.grad before backward", a.grad)
    rec("w.grad before backward", w.grad)
    y.backward()
    rec("a.grad", a.grad)
    rec("a.grad again", a.grad)
    rec("y.grad", y.grad)
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)
    k = B.value(2.5) * 3.0
    rec("const-only result .grad", k.grad)
    rec("a.is_leaf", a.is_leaf)
    b = w + 1
    b.retain_grad()
    rec("retained b.grad before backward (no warning)", b.grad)
    d = w.detach() * 2
    rec("detached result .grad (a leaf)", d.grad)
