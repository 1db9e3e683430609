"""create_graph=True makes gradients differentiable: higher derivatives."""

import math


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    y = w ** 3
    (g,) = B.grad(y, w, create_graph=True)
    rec("dy/dw of w**3", g)
    rec("g.requires_grad", g.requires_grad)
    rec("g.is_leaf", g.is_leaf)
    (g2,) = B.grad(g, w, create_graph=True)
    rec("d2y/dw2", g2)
    (g3,) = B.grad(g2, w)
    rec("d3y/dw3", g3)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    y = (x + w) * (w + 1)
    gw, gx = B.grad(y, [w, x], create_graph=True)
    rec("dy/dw", gw)
    rec("dy/dx", gx)
    rec("(x+w)(w+1): d2y/dw2", B.grad(gw, w, retain_graph=True))
    rec("d2y/dwdx", B.grad(gw, x, retain_graph=True))
    rec("d2y/dxdw", B.grad(gx, w, retain_graph=True))
    rec("d2y/dx2", lambda: B.grad(gx, x, retain_graph=True))
    rec("d2y/dx2 allow_unused", B.grad(gx, x, allow_unused=True, retain_graph=True))

    (plain,) = B.grad(w * w * w, w)
    rec("without create_graph: requires_grad", plain.requires_grad)
    rec("grad of a constant gradient", lambda: B.grad(plain, w))

    smooth = {
        "tanh": lambda v: v.tanh(),
        "sigmoid": lambda v: v.sigmoid(),
        "exp": lambda v: v.exp(),
        "log": lambda v: v.log(),
        "sqrt": lambda v: v.sqrt(),
        "sin": lambda v: v.sin(),
        "cos": lambda v: v.cos(),
        "1/v": lambda v: 1 / v,
        "3/v (div by value)": lambda v: B.value(3.0) / v,
        "v**2.5": lambda v: v ** 2.5,
        "2.5**v": lambda v: 2.5 ** v,
        "v**v": lambda v: v ** v,
        "v*v*v": lambda v: v * v * v,
        "tanh(v*v)": lambda v: (v * v).tanh(),
        "exp(sin(v))": lambda v: v.sin().exp(),
        "sigmoid(v)*v": lambda v: v.sigmoid() * v,
    }
    for text, f in smooth.items():
        v = B.value(0.8, requires_grad=True)
        (d1,) = B.grad(f(v), v, create_graph=True)
        (d2,) = B.grad(d1, v)
        rec(f"{text}: d1", d1)
        rec(f"{text}: d2", d2)
    v = B.value(0.8, requires_grad=True)
    rec("linear v/3: d1 is a constant", B.grad(v / 3, v, create_graph=True))
    x = B.value(2.0, requires_grad=True)
    rec("linear v*x: d1 depends on x only", B.grad(v * x, v, create_graph=True))
    rec("reference tanh'' at 0.8", -2 * math.tanh(0.8) * (1 - math.tanh(0.8) ** 2))

    w = B.value(0.5, requires_grad=True)
    x = B.value(2.25, requires_grad=True)
    (gw,) = B.grad(w * w * x, w, create_graph=True)
    gw.backward()
    rec("gw.backward(): w.grad = d2/dw2", w.grad)
    rec("gw.backward(): x.grad = d2/dwdx", x.grad)
