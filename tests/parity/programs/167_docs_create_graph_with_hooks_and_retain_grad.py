"""``create_graph=True`` (the ``backward``/``grad`` docstrings) together with what the notes show of
hooks and ``retain_grad``, on values of our own: a retained gradient, a tensor hook's gradient and
a node hook's gradients carry a graph, a gradient penalty ``grad(y, x, create_graph=True)[0] ** 2``
backpropagated into ``x.grad``, ``.grad`` differentiated again after ``backward(create_graph=True)``,
and a hook that replaces the gradient under ``create_graph``."""


def run(B, rec):
    log = []

    w = B.value(0.7, requires_grad=True)
    a = w.sin()
    a.retain_grad()
    a.register_hook(lambda g: log.append(("a hook", g.requires_grad, g.grad_fn and g.grad_fn.name())))
    a.grad_fn.register_hook(lambda gi, go: log.append(("a node", gi[0].requires_grad, go[0].requires_grad)))
    y = a * a * w
    y.backward(create_graph=True)
    rec("retained a.grad under create_graph", (a.grad, a.grad.requires_grad, a.grad.grad_fn))
    rec("hooks saw", [str(e) for e in log])
    rec("w.grad", (w.grad, w.grad.grad_fn))
    del log[:]
    g = w.grad
    w.grad = None
    g.backward()
    rec("w.grad.backward(): w.grad (second derivative)", w.grad)
    rec("a.grad after the second pass", a.grad)

    # a gradient penalty
    x = B.value(-0.4, requires_grad=True)
    k = B.value(1.5, requires_grad=True)
    out = (k * x).tanh()
    (gx,) = B.grad(out, x, create_graph=True)
    penalty = gx ** 2
    loss = out + penalty
    loss.backward()
    rec("penalty: gx", (gx, gx.grad_fn))
    rec("penalty: x.grad, k.grad", (x.grad, k.grad))

    # a tensor hook replacing the gradient under create_graph
    x = B.value(1.2, requires_grad=True)
    b = x.exp()
    b.register_hook(lambda g: g * b)
    (gb,) = B.grad(b * 2, x, create_graph=True)
    rec("hook g * b under create_graph", (gb, gb.grad_fn))
    (ggb,) = B.grad(gb, x)
    rec("its derivative", ggb)

    # a second backward(create_graph=True) accumulates a graph into .grad
    x = B.value(0.3, requires_grad=True)
    y = x ** 3
    y.backward(create_graph=True)
    first = x.grad
    y.backward(create_graph=True)
    rec("two create_graph passes: x.grad", (x.grad, x.grad.grad_fn, x.grad is first))
    (h,) = B.grad(x.grad, x)
    rec("d(x.grad)/dx", h)
