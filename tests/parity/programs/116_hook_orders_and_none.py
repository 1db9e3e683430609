"""Tensor and node hooks beyond the basics: order across a leaf used twice and several leaves ready together, hooks
added or removed while backward runs, a hook on a value no gradient reaches (called with None), hooks with
retain_grad, returning the same object, a new Value, a float, or raising; post-accumulate hooks."""

from parity.helpers import attempt


def run(B, rec):
    log = []

    def note(name):
        def hook(g):
            log.append((name, None if g is None else g.item()))
        return hook

    a = B.value(1.0, requires_grad=True)
    b = B.value(2.0, requires_grad=True)
    c = B.value(3.0, requires_grad=True)
    for v, name in ((a, "a"), (b, "b"), (c, "c")):
        v.register_hook(note(name))
    y = a * b + b * c + c * a
    y.register_hook(note("y"))
    y.backward()
    rec("three leaves", list(log))
    del log[:]
    (a * a * a).backward()
    rec("a used thrice", list(log))
    del log[:]

    # a hook that registers another hook, and one that removes itself
    x = B.value(0.5, requires_grad=True)
    z = x * 2
    handles = []

    def adder(g):
        log.append(("adder", g.item()))
        handles.append(z.register_hook(note("added")))

    def remover(g):
        log.append(("remover", g.item()))
        handles[0].remove()

    handles.append(z.register_hook(remover))
    z.register_hook(adder)
    (z * 3).backward(retain_graph=True)
    rec("adder and remover: first", list(log))
    del log[:]
    (z * 3).backward()
    rec("adder and remover: second", list(log))
    del log[:]

    # no gradient reaches it: torch calls the hook with None
    p = B.value(1.0, requires_grad=True)
    q = B.value(2.0, requires_grad=True)
    u = p * 2
    v = q * 3
    u.register_hook(note("u"))
    v.register_hook(note("v"))
    rec("grad only of p", B.grad(u + v * 0, p))
    rec("hooks then", list(log))
    del log[:]
    rec("grad u with v unused", attempt(lambda: B.grad(u * 2, [p, q], allow_unused=True)))
    rec("hooks unused", list(log))
    del log[:]

    # hooks with retain_grad: retained grad sees the hook's result, in either registration order
    for order in ("hook first", "retain first"):
        w = B.value(1.5, requires_grad=True)
        m = w * 2
        if order == "hook first":
            m.register_hook(lambda g: g * 10)
            m.retain_grad()
        else:
            m.retain_grad()
            m.register_hook(lambda g: g * 10)
        (m * m).backward()
        rec(f"{order}: m.grad, w.grad", (m.grad, w.grad))

    # what a hook may return
    w = B.value(2.0, requires_grad=True)
    for label, hook in {
        "same object": lambda g: g, "a new Value": lambda g: g + 1, "a float": lambda g: 1.5, "raises": lambda g: 1 / 0,
        "requires grad": lambda g: g * w,
    }.items():
        k = B.value(1.0, requires_grad=True)
        h = k.register_hook(hook)
        rec(f"returns {label}", attempt(lambda: ((k * 3).backward(), k.grad)[1]))
        h.remove()

    # post-accumulate hooks: after .grad is written, with the leaf itself
    s = B.value(1.0, requires_grad=True)
    seen = []
    s.register_post_accumulate_grad_hook(lambda leaf: seen.append(("post", leaf is s, leaf.grad.item())))
    s.register_hook(lambda g: seen.append(("pre", g.item())) or None)
    (s * s).backward()
    (s * 5).backward()
    rec("post accumulate", seen)
    rec("post on non-leaf", attempt(lambda: (s * 2).register_post_accumulate_grad_hook(lambda t: None)))

    # a node's hook may not put a gradient where the node sent none
    g = B.value(1.0, requires_grad=True)
    h = g * 3
    h.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    rec("node hook fills a None", attempt(lambda: h.backward()))
    g2 = B.value(1.0, requires_grad=True)
    h2 = g2 * 3
    h2.grad_fn.register_hook(lambda gi, go: (gi[0] * 2, None))
    rec("node hook keeps the None", attempt(lambda: (h2.backward(), g2.grad)[1]))
    _node_hooks(B, rec)


def _node_hooks(B, rec):
    """Hooks on nodes: their order with tensor hooks, replacing, changing the seed in place, wrong returns."""
    log = []
    w = B.value(2.0, requires_grad=True)
    x = B.value(3.0, requires_grad=True)
    y = w * x
    z = y.exp()
    def pre(gs):
        log.append(("pre", [None if g is None else g.item() for g in gs]))
    def post(gi, go):
        log.append(("post", [None if g is None else g.item() for g in gi], [None if g is None else g.item() for g in go]))
    y.grad_fn.register_prehook(pre)
    y.grad_fn.register_hook(post)
    z.grad_fn.register_hook(lambda gi, go: log.append(("zpost", len(gi), len(go))))
    y.register_hook(lambda g: log.append(("tensor", g.item())))
    z.backward()
    rec("node hooks: order", list(log)); del log[:]
    a = B.value(1.0, requires_grad=True)
    b = a * 2
    b.grad_fn.register_prehook(lambda gs: (gs[0] * 10,))
    b.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, gi[1]))
    b.backward()
    rec("node hooks: replaced", a.grad)
    e = B.value(1.0, requires_grad=True)
    f = e * 3
    rec("node hooks: prehook wrong return", attempt(lambda: (f.grad_fn.register_prehook(lambda gs: 5), f.backward())))
    g = B.value(1.0, requires_grad=True)
    h = g * 3
    rec("node hooks: hook wrong count", attempt(lambda: (h.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0])), h.backward())))
    k = B.value(1.0, requires_grad=True)
    m = k * 2
    acc = m.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda gs: log.append(("acc pre", gs[0].item())))
    acc.register_hook(lambda gi, go: log.append(("acc post", gi, [t.item() for t in go])))
    m.backward()
    rec("node hooks: AccumulateGrad hooks", list(log)); del log[:]
    n = B.value(1.0, requires_grad=True)
    p = n * 2 + n * 3
    n.register_hook(lambda g: log.append(("n", g.item())))
    p.grad_fn.register_prehook(lambda gs: log.append(("add pre", gs[0].item())))
    (g1,) = B.grad(p, n)
    rec("node hooks: grad() with hooks", (g1, list(log))); del log[:]
    q = B.value(2.0, requires_grad=True)
    r = q * q
    hh = r.grad_fn.register_hook(lambda gi, go: log.append("x"))
    hh.remove()
    r.backward()
    rec("node hooks: removed node hook", list(log))
    s = B.value(2.0, requires_grad=True)
    t = s.sin()
    t.grad_fn.register_prehook(lambda gs: None)
    (gs1,) = B.grad(t, s, create_graph=True)
    rec("node hooks: create_graph with prehook", (gs1, gs1.grad_fn))
