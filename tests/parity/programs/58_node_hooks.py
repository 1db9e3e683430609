"""grad_fn.register_prehook / register_hook and register_post_accumulate_grad_hook: order, arguments, replacement."""


def run(B, rec):
    log = []

    def s(v):
        return None if v is None else v.item()

    def st(t):
        return tuple(s(v) for v in t)

    w, x, c = B.value(2.0, requires_grad=True), B.value(3.0, requires_grad=True), B.value(5.0)
    a = w * x
    y = a * c
    a.register_hook(lambda g: log.append(("tensor hook a", s(g))))
    a.grad_fn.register_prehook(lambda go: log.append(("prehook a", st(go))))
    a.grad_fn.register_hook(lambda gi, go: log.append(("hook a", st(gi), st(go))))
    y.grad_fn.register_hook(lambda gi, go: log.append(("hook y", st(gi), st(go))))
    w.register_post_accumulate_grad_hook(lambda t: log.append(("post accumulate w", s(t.grad))))
    acc = a.grad_fn.next_functions[0][0]
    acc.register_hook(lambda gi, go: log.append(("AccumulateGrad hook", st(gi), st(go))))
    acc.register_prehook(lambda go: log.append(("AccumulateGrad prehook", st(go))))
    w.register_hook(lambda g: log.append(("w tensor hook", s(g))))
    y.backward()
    rec("order and arguments", [str(item) for item in log])
    rec("grads", (w.grad, x.grad))
    for k in (10.0, -0.5):
        w = B.value(2.0, requires_grad=True)
        a = w * 3
        a.grad_fn.register_prehook(lambda go: (go[0] * k,))
        a.backward()
        rec(f"prehook scales by {k}", w.grad)
        w = B.value(2.0, requires_grad=True)
        a = w * 3
        a.grad_fn.register_hook(lambda gi, go: (gi[0] * k, None))
        a.backward()
        rec(f"hook scales by {k}", w.grad)
    w = B.value(2.0, requires_grad=True)
    a = w * 3
    h = a.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
    h.remove()
    a.backward()
    rec("removed hook", w.grad)
    rec("post accumulate on a non-leaf", lambda: (w * 1).register_post_accumulate_grad_hook(lambda t: None))
    rec("post accumulate without grad", lambda: B.value(1.0).register_post_accumulate_grad_hook(lambda t: None))
    w = B.value(2.0, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda t: t.grad.mul_(2) and None)
    (w * 3).backward()
    rec("post accumulate mul_", w.grad)
    (w * 3).backward()
    rec("post accumulate mul_ twice", w.grad)
    w = B.value(2.0, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda t: 5.0)
    rec("post accumulate returns a float", lambda: (w * 3).backward())
    w = B.value(2.0, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda t: t.grad * 1)
    rec("post accumulate returns a value", lambda: (w * 3).backward())
    w = B.value(2.0, requires_grad=True)
    a = w * 3
    a.grad_fn.register_hook(lambda gi, go: 1.0)
    rec("hook returns a float", lambda: a.backward())
    w = B.value(2.0, requires_grad=True)
    a = w * 3
    a.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    rec("prehook returns two", lambda: a.backward())
    w, b = B.value(2.0, requires_grad=True), B.value(1.0, requires_grad=True)
    a = w * 3 + b * 0
    log.clear()
    a.grad_fn.register_hook(lambda gi, go: log.append(("add", st(gi), st(go))))
    B.grad(a, w)
    rec("hook in grad() sees only what is needed", [str(item) for item in log])
    w = B.value(2.0, requires_grad=True)
    y = w * 3
    log.clear()
    y.grad_fn.register_hook(lambda gi, go: log.append("ran"))
    B.grad(y, w)
    rec("hook runs in grad()", list(log))
    w = B.value(2.0, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda t: log.append("post accumulate in grad()"))
    log.clear()
    B.grad(w * 3, w)
    rec("post accumulate in grad()", list(log))
