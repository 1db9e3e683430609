"""exp, tanh, sigmoid, relu (and sqrt) save their output; sin and log save their input."""


def run(B, rec):
    for op in ("exp", "tanh", "sigmoid", "relu", "sqrt"):
        w = B.value(0.625, requires_grad=True)
        a = w * 1
        out = getattr(a, op)()
        out.add_(1)
        rec(f"{op}: output modified, grad_fn", out.grad_fn)
        rec(f"{op}: output modified, backward", lambda: out.backward())

        w = B.value(0.625, requires_grad=True)
        a = w * 1
        out = getattr(a, op)()
        a.mul_(2)
        rec(f"{op}: input modified, backward", lambda: out.backward())
        rec(f"{op}: input modified, w.grad", w.grad)

    for op in ("sin", "cos", "log", "abs"):
        w = B.value(0.625, requires_grad=True)
        a = w * 1
        out = getattr(a, op)()
        a.add_(1)
        rec(f"{op}: input modified, backward", lambda: out.backward())

        w = B.value(0.625, requires_grad=True)
        a = w * 1
        out = getattr(a, op)()
        out.mul_(2)
        rec(f"{op}: output modified, backward", lambda: out.backward())
        rec(f"{op}: output modified, w.grad", w.grad)

    w = B.value(0.625, requires_grad=True)
    out = w.exp()
    out.mul_(3)
    rec("exp of a leaf, output modified", lambda: out.backward())

    w = B.value(0.625, requires_grad=True)
    out = w.sin()
    w.detach().add_(1)
    rec("sin of a leaf, leaf modified via detach", lambda: out.backward())
