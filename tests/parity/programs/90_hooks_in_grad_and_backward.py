"""Hooks of every kind on a small graph, in backward, grad() and backward(inputs=): which run, in what order, with what; grad() captures an input's gradient before the hooks of a node it runs on, after them at one it does not; an AccumulateGrad's node hooks run only in backward."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    log = []
    def s(v):
        return None if v is None else v.item()
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.5, requires_grad=True)
    a = w * x
    b = a.exp()
    c = a + b
    a.retain_grad()
    b.retain_grad()
    a.register_hook(lambda g: log.append(("a", s(g))))
    b.register_hook(lambda g: log.append(("b", s(g))))
    c.register_hook(lambda g: log.append(("c", s(g))))
    c.retain_grad()
    c.grad_fn.register_prehook(lambda go: log.append(("c pre", [s(t) for t in go])))
    c.grad_fn.register_hook(lambda gi, go: log.append(("c post", [s(t) for t in gi], [s(t) for t in go])))
    b.grad_fn.register_hook(lambda gi, go: log.append(("b post", [s(t) for t in gi], [s(t) for t in go])))
    a.grad_fn.register_prehook(lambda go: log.append(("a pre", [s(t) for t in go])))
    w.register_post_accumulate_grad_hook(lambda t: log.append(("w post acc", s(t.grad))))
    x.register_hook(lambda g: log.append(("x", s(g))))
    c.backward(B.value(2.0), retain_graph=True)
    rec("log 1", [str(t) for t in log])
    rec("grads 1", (w.grad, x.grad, a.grad, b.grad, c.grad))
    log.clear()
    B.grad(c, [a], retain_graph=True)
    rec("log grad a", [str(t) for t in log])
    log.clear()
    B.grad(c, [w, b], retain_graph=True)
    rec("log grad w b", [str(t) for t in log])
    log.clear()
    c.backward(inputs=[a])
    rec("log inputs a", [str(t) for t in log])
    rec("grads 2", (w.grad, x.grad, a.grad, b.grad, c.grad))
    log.clear()
    rec("third backward freed", lambda: c.backward())
    rec("log third", [str(t) for t in log])
    # hooks that replace along the way
    w = B.value(0.25, requires_grad=True)
    u = w * w
    v = u * 3
    u.register_hook(lambda g: g * 0)
    v.backward()
    rec("zeroing hook", w.grad)
    w = B.value(0.25, requires_grad=True)
    u = w * w
    u.register_hook(lambda g: None)
    u.register_hook(lambda g: g + 1)
    u.retain_grad()
    u.register_hook(lambda g: g * 10)
    (u * 2).backward()
    rec("chain with retain in middle", (u.grad, w.grad))
    w = B.value(0.25, requires_grad=True)
    u = w * w
    hs = [u.register_hook(lambda g: g * 2), u.register_hook(lambda g: g * 3)]
    hs[0].remove()
    (u * 1).backward()
    rec("first removed", w.grad)
    w = B.value(0.25, requires_grad=True)
    w.register_hook(lambda g: g * 2)
    B.grad(w * 3, w)
    rec("leaf hook in grad()", lambda: B.grad(w * 3, w))
    rec("w.grad after grad()", w.grad)
    u = w * 3
    u.register_hook(lambda g: g * 5)
    rec("nonleaf hook in grad() wrt itself", lambda: B.grad(u, u, retain_graph=True))
    rec("nonleaf hook in grad() wrt w", lambda: B.grad(u * 1, w))
    w = B.value(0.25, requires_grad=True)
    u = w * 3
    u.retain_grad()
    B.grad(u * 2, w)
    rec("retain_grad untouched by grad()", u.grad)
    w = B.value(0.25, requires_grad=True)
    w.retain_grad()
    rec("leaf retains_grad", w.retains_grad)
    u = w * 3
    rec("nonleaf retains_grad before", u.retains_grad)
    u.retain_grad()
    rec("nonleaf retains_grad after", u.retains_grad)
    rec("register_hook on nonleaf requiring", lambda: (B.value(1.0) * 2).register_hook(lambda g: g))
    rec("retain_grad on const", lambda: (B.value(1.0) * 2).retain_grad())
    with B.no_grad():
        z = w * 2
    rec("hook on no_grad result", lambda: z.register_hook(lambda g: g))
    rec("retain on no_grad result", lambda: z.retain_grad())
    d = w.detach()
    rec("hook on detached", lambda: d.register_hook(lambda g: g))
    # post accumulate
    w = B.value(0.25, requires_grad=True)
    order = []
    w.register_hook(lambda g: order.append("tensor hook") or g * 2)
    w.register_post_accumulate_grad_hook(lambda t: order.append(("post", s(t.grad))))
    (w * 4).backward()
    (w * 4).backward()
    rec("post order", [str(o) for o in order])
    rec("w.grad post", w.grad)
    w = B.value(0.25, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda t: setattr(t, "grad", None))
    (w * 4).backward()
    rec("post sets grad None", w.grad)
    w = B.value(0.25, requires_grad=True)
    hp = w.register_post_accumulate_grad_hook(lambda t: (t.grad.zero_(), None)[1])
    (w * 4).backward()
    rec("post zero_", w.grad)
    hp.remove()
    (w * 4).backward()
    rec("post removed", w.grad)
    # grad_fn hook on AccumulateGrad via next_functions
    w = B.value(0.25, requires_grad=True)
    y = w * 2
    acc = y.grad_fn.next_functions[0][0]
    rec("acc name", acc)
    rec("acc variable is w", acc.variable is w)
    rec("acc next", acc.next_functions)
    rec("acc same twice", (w * 3).grad_fn.next_functions[0][0] is acc)
    acc.register_prehook(lambda go: (go[0] * 10,))
    y.backward()
    rec("acc prehook scales", w.grad)
    rec("y.grad_fn metadata", len(y.grad_fn.metadata))
    y.grad_fn.metadata["k"] = 1
    rec("metadata kept", y.grad_fn.metadata["k"])
    rec("name()", y.grad_fn.name())
    rec("grad_fn eq", y.grad_fn == y.grad_fn)
    log.clear()
    w = B.value(1.5, requires_grad=True)
    a = w * 3
    c = a * 2
    acc = a.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("acc pre", s(go[0]))))
    acc.register_hook(lambda gi, go: log.append(("acc post", s(go[0]))))
    w.register_hook(lambda g: log.append(("w hook", s(g))) or g * 10)
    a.register_hook(lambda g: log.append(("a hook", s(g))) or g * 7)
    a.grad_fn.register_prehook(lambda go: log.append(("a pre", s(go[0]))))
    a.retain_grad()
    rec("grad wrt w", B.grad(c, [w], retain_graph=True))
    rec("grad wrt w: log, a.grad", ([str(t) for t in log], a.grad))
    log.clear()
    rec("grad wrt a and w", B.grad(c, [a, w], retain_graph=True))
    rec("grad wrt a and w: log, a.grad", ([str(t) for t in log], a.grad))
    log.clear()
    rec("grad wrt a", B.grad(c, [a], retain_graph=True))
    rec("grad wrt a: log", [str(t) for t in log])
    log.clear()
    c.backward(retain_graph=True)
    rec("backward: log, grads", ([str(t) for t in log], a.grad, w.grad))
    log.clear()
    c.backward(inputs=[a])
    rec("backward inputs=[a]: log, grads", ([str(t) for t in log], a.grad, w.grad))
