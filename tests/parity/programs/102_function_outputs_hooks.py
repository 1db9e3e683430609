"""Hooks on the outputs of a Function with several outputs: each output's tensor hooks (called with None when no gradient reached it), a hook replacing one output's gradient, retain_grad per output, .grad warnings, the node's prehook and hook seeing one gradient per output, and anomaly mode naming the node."""


def run(B, rec):
    A = B.autograd
    log = []

    class Split(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y, x - y

        @staticmethod
        def backward(ctx, g0, g1, g2):
            log.append(("backward", g0, g1, g2))
            x, y = ctx.saved_tensors
            return g0 * y + g1 + g2, g0 * x + g1 - g2

    x = B.value(2.0, requires_grad=True)
    y = B.value(-0.5, requires_grad=True)
    a, b, c = Split.apply(x, y)
    a.register_hook(lambda g: log.append(("hook a", g)))
    b.register_hook(lambda g: log.append(("hook b", g)))
    c.register_hook(lambda g: log.append(("hook c", g)))
    b.retain_grad()
    rec("retains_grad", (a.retains_grad, b.retains_grad, c.retains_grad))
    (a * 2).backward()
    rec("log a*2", tuple(log))
    rec("b.grad unreached", b.grad)
    rec("a.grad", a.grad)
    del log[:]

    a, b, c = Split.apply(x, y)
    b.register_hook(lambda g: g * 10)
    c.retain_grad()
    a.retain_grad()
    (a + b + c).backward()
    rec("log replaced", tuple(log))
    rec("retained a, c", (a.grad, c.grad))
    rec("x, y grads", (x.grad, y.grad))
    del log[:]

    a, b, c = Split.apply(x, y)
    h = a.register_hook(lambda g: log.append(("removed", g)))
    h.remove()
    node = a.grad_fn
    node.register_prehook(lambda grads: log.append(("prehook", grads)))
    node.register_hook(lambda gi, go: log.append(("node hook", gi, go)))
    (b * c).backward(retain_graph=True)
    rec("node hooks", tuple(log))
    del log[:]
    node.register_prehook(lambda grads: (grads[0], grads[1] * 10, grads[2]))
    b.backward()
    rec("prehook replacing", tuple(log))
    rec("x, y after prehook", (x.grad, y.grad))
    del log[:]

    a, b, c = Split.apply(x, y)
    b.register_hook(lambda g: 3.0)
    rec("hook returning a float", lambda: b.backward())

    class Bad(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * float("nan")

    with A.detect_anomaly():
        a, b = Bad.apply(x)
        rec("anomaly nan", lambda: (a + b).backward())
