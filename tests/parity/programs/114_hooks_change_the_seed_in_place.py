"""A hook that changes its gradient in place, when that gradient is the very object passed to
``backward(gradient)`` / ``grad(grad_outputs=)``: for a leaf root, a non-leaf root, a retained root, twice,
with a second hook, with a hook that returns a new value; what the caller's gradient object, ``.grad``
and their versions show afterwards."""


def run(B, rec):
    def double_in_place(g):
        g.mul_(2)

    # a leaf as the root: the seed goes straight to its AccumulateGrad
    w = B.value(1.5, requires_grad=True)
    g = B.value(3.0)
    w.register_hook(double_in_place)
    w.backward(g)
    rec("leaf root: seed", (g, g._version))
    rec("leaf root: grad", (w.grad, w.grad is g, w.grad._version))
    g2 = B.value(5.0)
    w.backward(g2)
    rec("leaf root again: seed", (g2, g2._version))
    rec("leaf root again: grad", (w.grad, w.grad is g, w.grad is g2, g, g._version))

    # a non-leaf root with a hook, retained
    x = B.value(2.0, requires_grad=True)
    y = x * 4
    y.retain_grad()
    y.register_hook(double_in_place)
    s = B.value(1.0)
    y.backward(s)
    rec("non-leaf root: seed", (s, s._version))
    rec("non-leaf root: grads", (y.grad, y.grad is s, x.grad))

    # hooks in order: the first changes in place, the second returns a new value
    z = B.value(-1.0, requires_grad=True)
    seen = []
    z.register_hook(lambda g: seen.append(("first", g.item())) or g.add_(10))
    z.register_hook(lambda g: seen.append(("second", g.item())) or g * 0.5)
    t = B.value(2.0)
    z.backward(t)
    rec("two hooks: seen", seen)
    rec("two hooks: seed and grad", (t, t._version, z.grad, z.grad is t))

    # grad(): the seed object changed in place by a hook of the root
    a = B.value(0.5, requires_grad=True)
    b = a * 3
    b.register_hook(double_in_place)
    go = B.value(1.0)
    (ga,) = B.grad(b, a, grad_outputs=go)
    rec("grad(): seed", (go, go._version))
    rec("grad(): result", (ga, ga is go))
    # grad() of a leaf with respect to itself
    c = B.value(2.5, requires_grad=True)
    c.register_hook(double_in_place)
    gc = B.value(1.0)
    (r,) = B.grad(c, c, grad_outputs=gc)
    rec("grad(c, c): seed", (gc, gc._version, r, r is gc))
    # the default seed (no gradient given)
    d = B.value(4.0, requires_grad=True)
    d.register_hook(double_in_place)
    d.backward()
    rec("default seed", (d.grad, d.grad._version))
    # an existing .grad and the seed
    e = B.value(1.0, requires_grad=True)
    e.grad = B.value(100.0)
    e.register_hook(double_in_place)
    ge = B.value(1.0)
    e.backward(ge)
    rec("accumulating: seed and grad", (ge, ge._version, e.grad, e.grad is ge))
