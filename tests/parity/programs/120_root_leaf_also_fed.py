"""A leaf that is a root of backward and also an input of another root: it runs once, after the last
node feeding it, with the sum of both gradients (not only the root's, first). Roots in either order,
hooks, a root leaf fed by nothing next to one fed by a node, and grad() with such a root."""


def run(B, rec):
    log = []

    def note(name):
        def hook(g):
            log.append((name, g.item()))
        return hook

    a = B.value(1.5, requires_grad=True)
    B.backward([a, a * 2])
    rec("backward([a, a*2]): a.grad", a.grad)
    a.grad = None
    B.backward([a * 2, a])
    rec("backward([a*2, a]): a.grad", a.grad)

    b = B.value(-0.5, requires_grad=True)
    c = B.value(2.0, requires_grad=True)
    for v, name in ((a, "a"), (b, "b"), (c, "c")):
        v.register_hook(note(name))
    a.grad = None
    y = a * b
    y.register_hook(note("y"))
    B.backward([c, a, y, b], [B.value(1.0), B.value(3.0), B.value(-2.0), B.value(0.25)])
    rec("hooks: roots c, a, y=a*b, b", list(log))
    rec("grads", [a.grad, b.grad, c.grad])
    del log[:]

    rec("grad([a, a*b], [a, b])", B.grad([a, a * b], [a, b]))
    rec("grad hooks", list(log))
