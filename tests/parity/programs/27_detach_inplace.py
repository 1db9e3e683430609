"""detach_() turns a value into a leaf without grad, in place."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    a = w * 2
    rec("a.detach_() returns a", a.detach_() is a)
    rec("a", a)
    rec("a.requires_grad", a.requires_grad)
    rec("a.is_leaf", a.is_leaf)
    rec("a.grad_fn", a.grad_fn)
    rec("a.grad (a leaf now: no warning)", a.grad)
    rec("a.add_(1) now allowed", lambda: a.add_(1))
    rec("a after add_", a)
    y = a * w
    y.backward()
    rec("w.grad", w.grad)

    v = B.value(-0.5, requires_grad=True)
    rec("leaf.detach_()", lambda: v.detach_())
    rec("v.requires_grad", v.requires_grad)
    rec("v.is_leaf", v.is_leaf)
