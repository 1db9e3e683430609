"""The docstrings of the autograd attributes of a tensor and of a graph node, their examples on
one-element values of our own: ``is_leaf``, ``register_hook`` (doubling, then ``remove()``),
``retain_grad``, ``detach``/``detach_``, ``Node.name()``, ``Node.register_hook`` and
``register_prehook`` (doubling, removed), ``next_functions``, ``metadata``."""


def run(B, rec):
    a = B.value(0.3, requires_grad=True)
    rec("a.is_leaf", a.is_leaf)
    c = B.value(0.3, requires_grad=True) + 2
    rec("c = ... + 2: is_leaf", c.is_leaf)
    e = B.value(0.3).requires_grad_()
    rec("e = ....requires_grad_(): is_leaf", e.is_leaf)
    d = B.value(0.3) * 2
    rec("d = plain * 2: is_leaf", d.is_leaf)

    v = B.value(0.0, requires_grad=True)
    h = v.register_hook(lambda grad: grad * 2)
    v.backward(B.value(3.0))
    rec("register_hook doubles: v.grad", v.grad)
    h.remove()
    v.backward(B.value(3.0))
    rec("after h.remove(): v.grad", v.grad)

    x = B.value(1.5, requires_grad=True)
    y = x * x
    y.retain_grad()
    z = y * 4
    z.backward()
    rec("retain_grad: y.grad, x.grad", (y.grad, x.grad))
    rec("retains_grad", (y.retains_grad, z.retains_grad))

    t = x * 3
    dt = t.detach()
    rec("detach: requires_grad, is_leaf, grad_fn", (dt.requires_grad, dt.is_leaf, dt.grad_fn))
    t2 = x * 3
    t2.detach_()
    rec("detach_: requires_grad, is_leaf, grad_fn", (t2.requires_grad, t2.is_leaf, t2.grad_fn))

    a = B.value(0.5, requires_grad=True)
    b = a.clone()
    rec("b.grad_fn.name()", b.grad_fn.name())
    rec("b.grad_fn.next_functions", b.grad_fn.next_functions)
    rec("metadata is an empty dict", b.grad_fn.metadata == {})
    handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
    b.sum().backward(retain_graph=True)
    rec("Node.register_hook doubles: a.grad", a.grad)
    handle.remove()
    a.grad = None
    b.sum().backward(retain_graph=True)
    rec("after handle.remove(): a.grad", a.grad)
    a.grad = None
    handle = b.grad_fn.register_prehook(lambda gO: (gO[0] * 2,))
    b.sum().backward(retain_graph=True)
    rec("Node.register_prehook doubles: a.grad", a.grad)
    handle.remove()
    a.grad = None
    b.sum().backward(retain_graph=True)
    rec("after removing the prehook: a.grad", a.grad)
