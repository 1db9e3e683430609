"""Changing requires_grad: allowed on leaves, an error on computed values."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w + x

    def set_false():
        a.requires_grad = False

    def set_true():
        a.requires_grad = True

    rec("a.requires_grad_(False)", lambda: a.requires_grad_(False))
    rec("a.requires_grad = False", set_false)
    rec("a.requires_grad_(True)", lambda: a.requires_grad_(True))
    rec("a.requires_grad_()", lambda: a.requires_grad_())
    rec("a.requires_grad = True", set_true)
    rec("a.requires_grad", a.requires_grad)

    rec("w.requires_grad_(False)", lambda: w.requires_grad_(False))
    rec("w.requires_grad", w.requires_grad)
    rec("w.is_leaf", w.is_leaf)
    rec("w * 2 now", (w * 2).grad_fn)
    rec("w.requires_grad_()", lambda: w.requires_grad_())
    rec("w.requires_grad again", w.requires_grad)

    t = B.value(3.5)
    rec("t.requires_grad_() returns t", t.requires_grad_() is t)
    rec("t.requires_grad", t.requires_grad)
    rec("t.is_leaf", t.is_leaf)
    t.requires_grad = False
    rec("t.requires_grad = False", t.requires_grad)
    t.requires_grad = True
    rec("t.requires_grad = True", t.requires_grad)
    (t * t).backward()
    rec("t.grad", t.grad)

    c = B.value(1.5) * 2
    rec("c.requires_grad_() (c = const*2)", lambda: c.requires_grad_())
    rec("c.is_leaf", c.is_leaf)
    rec("c.requires_grad", c.requires_grad)
    rec("c.grad_fn", c.grad_fn)
    (c * 4).backward()
    rec("c.grad", c.grad)
