"""``detach()``, ``detach_()``, ``.data`` and assigning ``.grad`` as the tensor docstrings and d2l's
detach example use them, on values of our own: a detached value shares the version (its in-place
change trips the saved-value check, ``.data``'s does not), ``detach_()`` on a non-leaf already used,
``.data = ...``, ``.grad`` set by hand on a leaf and a non-leaf, to a number, to a value that requires
grad, and then accumulated into by the next backward."""


def run(B, rec):
    # detach shares the version counter; .data does not
    x = B.value(0.9, requires_grad=True)
    y = x * x
    z = y.sin()
    d = y.detach()
    rec("detached: is_leaf, requires_grad, grad_fn", (d.is_leaf, d.requires_grad, d.grad_fn, d._version))
    d.add_(1)
    rec("after d.add_(1): y, y._version", (y, y._version))
    rec("z.backward() after the detached change", lambda: z.backward())
    y = x * x
    z = y.sin()
    y.data.add_(1)
    rec("after y.data.add_(1): y, version", (y, y._version))
    z.backward()
    rec("z.backward() after the .data change: x.grad", x.grad)
    x.grad = None

    # detach_() on a value already used downstream
    y = x.exp()
    z = y * 3
    h = y.register_hook(lambda g: g * 100)
    rec("detach_() returns y", y.detach_() is y)
    rec("after detach_: y", (y, y.requires_grad, y.is_leaf, y.grad_fn))
    z.backward()
    rec("the graph through y still runs: x.grad", x.grad)
    rec("y.grad after", y.grad)
    h.remove()
    w = B.value(2.0, requires_grad=True)
    rec("detach_() on a leaf that requires grad", lambda: (w.detach_(), w.requires_grad, w.is_leaf)[1:])
    x.grad = None

    # .data = another value
    w = B.value(2.0, requires_grad=True)
    y = w * w
    w.data = B.value(5.0)
    rec("w.data = 5: w, requires_grad, is_leaf, version", (w, w.requires_grad, w.is_leaf, w._version))
    y.backward()
    rec("backward of w * w recorded before: w.grad", w.grad)
    rec("w.data = a number", lambda: setattr(w, "data", 3.0))

    # .grad by hand
    w = B.value(1.0, requires_grad=True)
    rec("w.grad = 2.0", lambda: setattr(w, "grad", 2.0))
    w.grad = B.value(0.5)
    (w * 4).backward()
    rec("w.grad set by hand, then a backward", w.grad)
    g = B.value(1.0, requires_grad=True)
    w.grad = g * 1
    rec("w.grad set to a value with a graph", (w.grad, w.grad.requires_grad))
    (w * 3).backward()
    rec("then a backward", (w.grad, w.grad.requires_grad, w.grad.grad_fn))
    a = w * 2
    rec("a non-leaf's .grad set by hand", lambda: setattr(a, "grad", B.value(7.0)))
    rec("read back", a.grad)
    a.retain_grad()
    (a * a).backward()
    rec("retained after setting by hand", a.grad)
    c = B.value(3.0)
    c.grad = B.value(1.0)
    rec("a value without grad given a .grad", c.grad)
    (c * w).backward()
    rec("its .grad after a backward it is not part of", c.grad)
