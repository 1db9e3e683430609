"""``del w.grad`` is ``w.grad = None``: the leaf's gradient is gone, the next backward writes a new one,
deleting it twice is no error, and a non-leaf's (retained or not) goes without a warning."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    (w * 3.0).backward()
    del w.grad
    rec("after del: w.grad", w.grad)
    del w.grad
    rec("deleted twice: w.grad", w.grad)
    (w * w).backward()
    rec("next backward: w.grad", w.grad)
    y = w * 2.0
    y.retain_grad()
    y.backward()
    del y.grad
    rec("retained non-leaf after del: y.grad, y.retains_grad", (y.grad, y.retains_grad))
    z = w * 5.0
    del z.grad
    rec("non-leaf never given a gradient, deleted: is_leaf", z.is_leaf)
    c = B.value(1.0)
    del c.grad
    rec("leaf without grad after del: c.grad", c.grad)
