"""create_graph: the nodes torch records for each op's derivative, and the higher derivatives' values."""

import math


def tree(node, depth=3):
    """A node's name and, recursively, its inputs' (None for an edge that carries no gradient)."""
    if node is None:
        return "None"
    name = node.name().replace("torch::autograd::", "")
    if depth == 0 or not node.next_functions:
        return name
    return name + "(" + ", ".join(tree(n, depth - 1) for n, _ in node.next_functions) + ")"


def run(B, rec):
    ops = (
        ("tanh", lambda w: w.tanh()), ("sigmoid", lambda w: w.sigmoid()), ("relu", lambda w: w.relu()),
        ("exp", lambda w: w.exp()), ("log", lambda w: w.log()), ("sqrt", lambda w: w.sqrt()),
        ("sin", lambda w: w.sin()), ("cos", lambda w: w.cos()), ("abs", lambda w: w.abs()),
        ("reciprocal", lambda w: w.reciprocal()), ("w ** 3", lambda w: w ** 3), ("w ** 0.5", lambda w: w ** 0.5),
        ("w ** -1.5", lambda w: w ** -1.5), ("2 ** w", lambda w: 2 ** w), ("w * 3", lambda w: w * 3),
        ("w / 4", lambda w: w / 4), ("3 / w", lambda w: 3 / w), ("1 - w", lambda w: 1 - w),
        ("-w", lambda w: -w), ("w * w", lambda w: w * w),
    )
    for x in (0.75, -0.5, 0.0, 2.0):
        for name, f in ops:
            w = B.value(x, requires_grad=True)
            (g,) = B.grad(f(w), w, create_graph=True)
            key = f"{name} at {x}"
            rec(f"{key}: d1", g)
            rec(f"{key}: d1 graph", tree(g.grad_fn))
            if not g.requires_grad:
                continue
            (g2,) = B.grad(g, w, create_graph=True, allow_unused=True)
            rec(f"{key}: d2", g2)
            rec(f"{key}: d2 graph", tree(g2.grad_fn) if g2 is not None else "no d2")
            if g2 is not None and g2.requires_grad:
                (g3,) = B.grad(g2, w, allow_unused=True)
                rec(f"{key}: d3", g3)
    for x, p in ((1.5, 2.0), (2.0, 0.0), (0.0, 2.0), (-1.5, 3.0), (0.0, 0.0), (4.0, -0.5)):
        w, e = B.value(x, requires_grad=True), B.value(p, requires_grad=True)
        gw, ge = B.grad(w ** e, (w, e), create_graph=True)
        key = f"{x} ** Value {p}"
        rec(f"{key}: dw", gw)
        rec(f"{key}: dw graph", tree(gw.grad_fn))
        rec(f"{key}: de", ge)
        rec(f"{key}: de graph", tree(ge.grad_fn))
        second = B.grad(gw + ge, (w, e), allow_unused=True)
        rec(f"{key}: second", second)
    for x in (float("nan"), 0.0, -0.0, 3.0):
        w = B.value(x, requires_grad=True)
        (g,) = B.grad(w.relu(), w, create_graph=True)
        rec(f"relu' at {x}", g)
        rec(f"relu' at {x} requires grad", g.requires_grad)
    w = B.value(0.3, requires_grad=True)
    g = B.value(1.5, requires_grad=True)
    (d,) = B.grad(w.tanh(), w, g, create_graph=True)
    rec("tanh' with a grad-requiring grad_output: graph", tree(d.grad_fn))
    rec("tanh' d/d grad_output", B.grad(d, (w, g)))
    y = w.sigmoid()
    (d,) = B.grad(y, w, create_graph=True)
    d.backward()
    rec("sigmoid'' by backward", w.grad)
    rec("second backward through the double node", lambda: d.backward())
    rec("math", math.tanh(0.3))
