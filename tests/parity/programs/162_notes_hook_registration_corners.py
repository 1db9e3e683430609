"""Registering hooks as the "Autograd mechanics" notes and the hook docstrings show them, on values
of our own, at the corners a student hits: a tensor hook on a value that needs no gradient, a
post-accumulate hook on a non-leaf, a hook returning a number or a wrong tuple, a hook removed
twice or from inside a pass, a hook registered from inside a hook, one value used twice (its hook
sees the sum once), hooks kept across a retained second pass, and what grad() does with them."""


def run(B, rec):
    log = []

    def s(v):
        return None if v is None else round(v.item(), 9)

    c = B.value(2.0)
    rec("register_hook on a value without grad", lambda: c.register_hook(lambda g: g))
    rec("post-accumulate hook on a value without grad",
        lambda: c.register_post_accumulate_grad_hook(lambda t: None))
    w = B.value(1.25, requires_grad=True)
    a = w * 3
    rec("post-accumulate hook on a non-leaf", lambda: a.register_post_accumulate_grad_hook(lambda t: None))
    rec("retain_grad on a value without grad", lambda: c.retain_grad())

    # a hook that returns a Python number
    w = B.value(1.25, requires_grad=True)
    a = w * 3
    a.register_hook(lambda g: 2.0)
    rec("hook returns a float", lambda: (a * a).backward())
    rec("hook returns a float: w.grad", w.grad)

    # node hooks returning the wrong number of gradients
    w = B.value(1.25, requires_grad=True)
    a = w * w
    a.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    rec("node pre-hook returns two gradients for one", lambda: a.backward())
    w = B.value(1.25, requires_grad=True)
    x = B.value(-0.5, requires_grad=True)
    a = w * x
    a.grad_fn.register_hook(lambda gi, go: (gi[0],))
    rec("node hook returns one gradient for two", lambda: a.backward())
    w = B.value(1.25, requires_grad=True)
    a = w * 2
    a.grad_fn.register_hook(lambda gi, go: gi[0])
    rec("node hook returns a value, not a tuple", lambda: a.backward())

    # remove twice; remove from inside the pass
    w = B.value(0.5, requires_grad=True)
    a = w * 4
    h = a.register_hook(lambda g: log.append(("removed", s(g))))
    h.remove()
    rec("remove twice", lambda: h.remove())
    holder = {}

    def first(g):
        log.append(("first", s(g)))
        holder["second"].remove()

    a.register_hook(first)
    holder["second"] = a.register_hook(lambda g: log.append(("second", s(g))))
    a.backward(retain_graph=True)
    rec("a hook removes the next one during the pass", [str(e) for e in log])
    del log[:]
    a.backward()
    rec("the next pass", [str(e) for e in log])
    rec("w.grad", w.grad)
    del log[:]

    # a hook registered from inside another hook, on a value the pass has yet to reach
    w = B.value(0.5, requires_grad=True)
    a = w * 4
    b = a * a

    def register_on_a(g):
        log.append(("on b", s(g)))
        a.register_hook(lambda ga: log.append(("on a, registered during the pass", s(ga))))

    b.register_hook(register_on_a)
    b.backward()
    rec("hook registered during the pass", [str(e) for e in log])
    del log[:]

    # one value used twice: its hook sees the summed gradient once
    w = B.value(-1.5, requires_grad=True)
    a = w.exp()
    a.register_hook(lambda g: log.append(("a", s(g))))
    w.register_hook(lambda g: log.append(("w", s(g))))
    (a * a + a.sin() + w).backward()
    rec("used three times: hooks", [str(e) for e in log])
    rec("used three times: w.grad", w.grad)
    del log[:]

    # hooks stay for a retained second pass and a grad() call; post-accumulate hooks skip grad()
    w = B.value(0.3, requires_grad=True)
    a = w.tanh()
    a.register_hook(lambda g: (log.append(("a", s(g))), g * 10)[1])
    w.register_hook(lambda g: log.append(("w", s(g))))
    w.register_post_accumulate_grad_hook(lambda t: log.append(("w post", s(t.grad))))
    y = a * 2
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    rec("two passes: hooks", [str(e) for e in log])
    rec("two passes: w.grad", w.grad)
    del log[:]
    rec("grad(y, w)", B.grad(y, w, retain_graph=True))
    rec("grad(y, w): hooks", [str(e) for e in log])
    del log[:]
    rec("grad(y, a)", B.grad(y, a))
    rec("grad(y, a): hooks", [str(e) for e in log])
    rec("w.grad after grad()", w.grad)
