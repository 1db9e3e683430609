"""create_graph through every op a student meets, with Python numbers of each kind on either side: the
derivative's node and the nodes below it, its value, the second derivative, and what the derivative's
node saved."""

import math

from parity.helpers import attempt


def walk(node, depth=3):
    """The node's name and its inputs' names, ``depth`` levels down (a leaf's AccumulateGrad as 'leaf')."""
    if node is None:
        return None
    if depth == 0 or not node.next_functions:
        return node
    return (node, tuple(walk(n, depth - 1) for n, _ in node.next_functions))


def run(B, rec):
    cases = {
        "w * 3": lambda w, x: w * 3, "3 * w": lambda w, x: 3 * w, "w * 2.5": lambda w, x: w * 2.5, "w / 4": lambda w, x: w / 4,
        "4 / w": lambda w, x: 4 / w, "w / x": lambda w, x: w / x, "w * x": lambda w, x: w * x, "w - 1": lambda w, x: w - 1,
        "1 - w": lambda w, x: 1 - w, "w ** 3": lambda w, x: w ** 3, "w ** 0.5": lambda w, x: w ** 0.5,
        "2 ** w": lambda w, x: 2 ** w, "w ** x": lambda w, x: w ** x, "w.exp()": lambda w, x: w.exp(),
        "w.log()": lambda w, x: w.log(), "w.sqrt()": lambda w, x: w.sqrt(), "w.sin()": lambda w, x: w.sin(),
        "w.cos()": lambda w, x: w.cos(), "w.tan()": lambda w, x: w.tan(), "w.abs()": lambda w, x: w.abs(),
        "w.reciprocal()": lambda w, x: w.reciprocal(), "w.log1p()": lambda w, x: w.log1p(),
        "w.square()": lambda w, x: w.square(), "-w": lambda w, x: -w, "w.tanh()": lambda w, x: w.tanh(),
        "w.sigmoid()": lambda w, x: w.sigmoid(), "w.relu()": lambda w, x: w.relu(),
        "w.clamp(0, 1)": lambda w, x: w.clamp(0, 1),
        "w.add(x, alpha=2)": lambda w, x: w.add(x, alpha=2),
        "w.sum()": lambda w, x: w.sum(), "w.mean()": lambda w, x: w.mean(), "maximum": lambda w, x: B.maximum(w, x),
        "w.exp() * w": lambda w, x: w.exp() * w, "w.sin() / w": lambda w, x: w.sin() / w,
    }
    for label, f in cases.items():
        for v in (0.75, -2.0):
            w = B.value(v, requires_grad=True)
            x = B.value(1.25, requires_grad=True)
            y = f(w, x)
            (g,) = B.grad(y, w, create_graph=True)
            rec(f"{label} at {v}: d", (g, walk(g.grad_fn)))
            if g.grad_fn is not None:
                saved = [n for n in dir(g.grad_fn) if n.startswith("_saved_")]
                rec(f"{label} at {v}: d saved", attempt(lambda: [(n, getattr(g.grad_fn, n)) for n in saved]))
            rec(f"{label} at {v}: dd", attempt(lambda: B.grad(g, w, allow_unused=True)))
    w = B.value(math.pi / 4, requires_grad=True)
    (g,) = B.grad(w.sin() * w.cos(), w, create_graph=True)
    (gg,) = B.grad(g, w, create_graph=True)
    rec("third order", (gg, walk(gg.grad_fn, 2), attempt(lambda: B.grad(gg, w))))
