"""requires_grad set where torch refuses it, on values of our own: on a non-leaf, switched off on a
non-leaf, on a comparison, on an integer item; and what requires_grad_ returns."""


def run(B, rec):
    w = B.value(0.75, requires_grad=True)
    y = w * 2
    rec("y.requires_grad = False", lambda: setattr(y, "requires_grad", False))
    rec("y.requires_grad_(False)", lambda: y.requires_grad_(False))
    rec("y.requires_grad = True", lambda: setattr(y, "requires_grad", True))
    rec("y.requires_grad_()", lambda: y.requires_grad_())
    rec("y.requires_grad_() returns y", y.requires_grad_() is y)
    b = w > 0
    rec("(w > 0).requires_grad_()", lambda: b.requires_grad_())
    rec("(w > 0).requires_grad = True", lambda: setattr(b, "requires_grad", True))
    rec("(w > 0).requires_grad = 1", lambda: setattr(b, "requires_grad", 1))
    rec("(w > 0).requires_grad = False", lambda: setattr(b, "requires_grad", False))
    rec("(w > 0).requires_grad_(False)", lambda: b.requires_grad_(False))
    rec("(w > 0).requires_grad", b.requires_grad)
    rec("(w > 0).grad_fn", b.grad_fn)
    rec("(w > 0).is_leaf", b.is_leaf)
    c = B.value(1.5)
    rec("c.requires_grad_() returns c", c.requires_grad_() is c)
    rec("c.requires_grad_(False) on a leaf that needs grad", lambda: c.requires_grad_(False))
    rec("c after", (c.requires_grad, c.is_leaf))
    rec("c.requires_grad_(requires_grad=True)", lambda: c.requires_grad_(requires_grad=True))
    d = c.detach()
    rec("d = c.detach()", (d.requires_grad, d.is_leaf, d.grad_fn))
    with B.no_grad():
        e = w * 3
    rec("e made under no_grad", (e.requires_grad, e.is_leaf, e.grad_fn))
    rec("e.requires_grad_()", lambda: e.requires_grad_())
    (e * e).backward()
    rec("e.grad", e.grad)
    rec("w.grad", w.grad)
