"""A plain value changed in place by a grad-requiring operand joins the graph."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    v = B.value(-2.0)
    rec("v.mul_(w)", lambda: v.mul_(w))
    rec("v", v)
    rec("v.is_leaf", v.is_leaf)
    rec("v.requires_grad", v.requires_grad)
    rec("v.grad_fn", v.grad_fn)
    rec("v._version", v._version)
    v.backward()
    rec("w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    u = B.value(0.25)
    ident = id(u)
    u += w
    rec("u += w: same object", id(u) == ident)
    rec("u += w: grad_fn", u.grad_fn)
    rec("u += w: is_leaf", u.is_leaf)
    u.backward()
    rec("u += w: w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    u = B.value(0.25)
    with B.no_grad():
        u += w
    rec("under no_grad u += w: grad_fn", u.grad_fn)
    rec("under no_grad u += w: requires_grad", u.requires_grad)
    rec("under no_grad u += w: is_leaf", u.is_leaf)
    rec("u", u)
