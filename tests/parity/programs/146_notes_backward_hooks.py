"""The "Autograd mechanics" notes on backward hooks, on values of our own: the order the hooks of one
pass fire in (tensor hooks, node pre-hooks, retain_grad, the node, post-accumulate hooks, node hooks),
several hooks of one kind in registration order each seeing the last one's result, retain_grad after
every other tensor hook, which hooks fire when grad() or inputs= leave a node out."""


def run(B, rec):
    log = []

    def s(v):
        return None if v is None else round(v.item(), 9)

    def st(t):
        return tuple(s(v) for v in t)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.5, requires_grad=True)
    a = w * x
    a.retain_grad()
    y = a.exp()
    a.register_hook(lambda g: log.append(("tensor hook a", s(g))))
    a.grad_fn.register_prehook(lambda go: log.append(("pre-hook of a's node", st(go))))
    a.grad_fn.register_hook(lambda gi, go: log.append(("hook of a's node", st(gi), st(go))))
    w.register_hook(lambda g: log.append(("tensor hook w", s(g))))
    w.register_post_accumulate_grad_hook(lambda t: log.append(("post-accumulate w", s(t.grad))))
    w_acc = a.grad_fn.next_functions[0][0]
    w_acc.register_prehook(lambda go: log.append(("pre-hook of w's AccumulateGrad", st(go))))
    w_acc.register_hook(lambda gi, go: log.append(("hook of w's AccumulateGrad", st(gi), st(go))))
    y.grad_fn.register_hook(lambda gi, go: log.append(("hook of y's node", st(gi), st(go))))
    y.backward()
    rec("one pass: order", [str(e) for e in log])
    rec("grads", (w.grad, x.grad, a.grad))
    del log[:]

    # hooks of one kind run in registration order, each sees the gradient the last one returned
    w = B.value(2.0, requires_grad=True)
    a = w * 3
    a.register_hook(lambda g: (log.append(("first", s(g))), g * 2)[1])
    a.retain_grad()
    a.register_hook(lambda g: (log.append(("second", s(g))), g + 1)[1])
    a.grad_fn.register_prehook(lambda go: (log.append(("node pre-hook", st(go))), (go[0] * 10,))[1])
    (a * a).backward()
    rec("chain: order", [str(e) for e in log])
    rec("chain: a.grad (retain_grad runs after the tensor hooks)", a.grad)
    rec("chain: w.grad (the node pre-hook's result)", w.grad)
    del log[:]

    # whether a hook fires: grad() and inputs= only run what they need
    w = B.value(1.0, requires_grad=True)
    x = B.value(2.0, requires_grad=True)
    p = w * 2
    q = x * 3
    p.register_hook(lambda g: log.append(("p", s(g))))
    q.register_hook(lambda g: log.append(("q", s(g))))
    p.grad_fn.register_hook(lambda gi, go: log.append(("p node", st(gi))))
    q.grad_fn.register_hook(lambda gi, go: log.append(("q node", st(gi))))
    w.register_hook(lambda g: log.append(("w", s(g))))
    x.register_hook(lambda g: log.append(("x", s(g))))
    out = p * q
    rec("grad(out, w)", B.grad(out, w, retain_graph=True))
    rec("grad(out, w): hooks", [str(e) for e in log])
    del log[:]
    out.backward(inputs=[x])
    rec("backward(inputs=[x]): hooks", [str(e) for e in log])
    rec("backward(inputs=[x]): grads", (w.grad, x.grad))
