"""tan, log1p and square: values, gradients and their nodes, on ordinary and edge values."""

import math

NAN, INF = float("nan"), float("inf")


def run(B, rec):
    for x in (0.5, -1.2, 2.0, 0.0, -0.0, 1e-10, math.pi / 2, 10.0, NAN, INF, -1.0, -1.5, -0.999999, 3e8):
        for name in ("tan", "log1p", "square"):
            w = B.value(x, requires_grad=True)
            y = getattr(w, name)()
            rec(f"{name}({x})", y)
            rec(f"{name}({x}) node", y.grad_fn)
            (y * 1.5).backward()
            rec(f"{name}({x}) grad", w.grad)
    w = B.value(0.3, requires_grad=True)
    rec("module tan", B.tan(w))
    rec("module log1p", B.log1p(w))
    rec("module square", B.square(w))
    rec("square of a constant", B.square(B.value(3.0)).requires_grad)
    (g,) = B.grad(w.tan(), w, create_graph=True)
    rec("tan' create_graph", g)
    rec("tan' node", g.grad_fn)
    (gg,) = B.grad(g, w)
    rec("tan''", gg)
    (g,) = B.grad(w.log1p(), w, create_graph=True)
    rec("log1p'", g)
    (gg,) = B.grad(g, w)
    rec("log1p''", gg)
    (g,) = B.grad(w.square(), w, create_graph=True)
    rec("square' node", g.grad_fn)
    (gg,) = B.grad(g, w)
    rec("square''", gg)
    y = w.tan()
    y.backward()
    rec("tan second backward", lambda: y.backward())
    y = w.log1p()
    y.backward()
    rec("log1p second backward", lambda: y.backward())
    v = B.value(0.3, requires_grad=True)
    u = v * 1
    y = u.log1p()
    u.add_(1)
    rec("log1p input modified in place", lambda: y.backward())
    v = B.value(0.3, requires_grad=True)
    y = v.tan()
    z = y * 2
    y.mul_(2)
    rec("tan result modified in place", lambda: z.backward())
