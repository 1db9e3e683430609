"""Hooks as the notes and docs show them, on values of our own, and a student's slips: a tensor hook
returning a number, a tuple, a Value that requires grad; a post-accumulate hook returning something;
a node hook returning the wrong count; removing a handle twice; a hook that raises; hooks on a
leaf registered after the graph was built; the order of tensor hooks, node prehooks, node hooks and
retain_grad."""


def run(B, rec):
    w = B.value(1.4, requires_grad=True)
    y = w * w
    y.register_hook(lambda g: 2.0)
    rec("tensor hook returns a float", lambda: y.backward())
    w.grad = None
    y = w * w
    y.register_hook(lambda g: (g, g))
    rec("tensor hook returns a tuple", lambda: y.backward())
    w.grad = None
    y = w * w
    y.register_hook(lambda g: g * B.value(2.0, requires_grad=True))
    rec("tensor hook returns a Value that requires grad", lambda: y.backward())
    rec("w.grad then", w.grad)
    rec("w.grad.requires_grad", w.grad.requires_grad if w.grad is not None else None)

    v = B.value(-0.3, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: p.grad * 2)
    rec("post-accumulate hook returning a value", lambda: (v * 3).backward())
    rec("v.grad", v.grad)

    u = B.value(0.8, requires_grad=True)
    z = u.exp() * 2
    z.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    rec("node hook returns two for one", lambda: z.backward())
    z = u.exp() * 2
    z.grad_fn.register_hook(lambda gi, go: gi[0])
    rec("node hook returns a bare value", lambda: z.backward())
    z = u.exp() * 2
    z.grad_fn.register_prehook(lambda go: go[0] * 3)
    rec("prehook returns a bare value", lambda: z.backward())
    z = u.exp() * 2
    z.grad_fn.register_prehook(lambda go: (go[0] * 3,))
    u.grad = None
    z.backward()
    rec("prehook triples", u.grad)

    h = u.register_hook(lambda g: g * 10)
    h.remove()
    rec("remove twice", lambda: h.remove())
    u.grad = None
    (u * 5).backward()
    rec("removed hook does nothing", u.grad)

    def boom(g):
        raise ValueError("hook failed on purpose")

    q = u * 4
    q.register_hook(boom)
    rec("a hook that raises", lambda: q.backward())
    rec("u.grad after the failing hook", u.grad)

    a = B.value(0.25, requires_grad=True)
    out = (a * 3).sin()
    a.register_hook(lambda g: g + 1)
    out.backward()
    rec("leaf hook registered after the graph", a.grad)

    order = []
    b = B.value(-1.2, requires_grad=True)
    m = b * 2
    m.register_hook(lambda g: order.append("tensor hook") or None)
    m.grad_fn.register_prehook(lambda go: order.append("node prehook") or None)
    m.grad_fn.register_hook(lambda gi, go: order.append("node hook") or None)
    m.retain_grad()
    m.register_hook(lambda g: order.append("tensor hook after retain_grad") or None)
    b.register_hook(lambda g: order.append("leaf hook") or None)
    b.register_post_accumulate_grad_hook(lambda p: order.append("post accumulate") or None)
    (m * m).backward()
    rec("order", list(order))
    rec("m.grad", m.grad)
    rec("b.grad", b.grad)
    rec("hook on a value under no_grad", lambda: B.value(1.0).register_hook(lambda g: g))
    with B.no_grad():
        n = b * 2
    rec("hook on a result made under no_grad", lambda: n.register_hook(lambda g: g))
    rec("hook not callable", lambda: b.register_hook(3))
