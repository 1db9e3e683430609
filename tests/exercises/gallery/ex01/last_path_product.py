"""Wrong: grad_by_paths lists every path from y to the leaf, then keeps the last one's product
alone (``total = prod`` where the sum needs ``total += prod``)."""
# names: grad_by_paths(y, w), along one path alone

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    """Build y = (x + w) * (w + 1) from two new leaves that require grad."""
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def backprop(w: float, x: float) -> tuple[float, float]:
    """Build the graph, backpropagate from y, and return (dy/dw, dy/dx) as two floats."""
    g = build_graph(w, x)
    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()


def _inputs(node) -> list:
    """The nodes feeding ``node``, skipping inputs that need no gradient (None)."""
    return [child for child, _ in node.next_functions if child is not None]


def paths(y: Value, leaf: Value) -> list[list[str]]:
    """Every path from y down to ``leaf``, as the names of the grad_fn nodes it passes through."""
    found: list[list[str]] = []

    def walk(node, trail: list[str]) -> None:
        trail = trail + [node.name()]
        for child in _inputs(node):
            if getattr(child, "variable", None) is leaf:
                found.append(trail)
            elif not hasattr(child, "variable"):
                walk(child, trail)

    walk(y.grad_fn, [])
    return found


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    """dy/d(leaf) by hand: the sum over every path of the product of local derivatives."""

    def data_of(node) -> float:
        if hasattr(node, "variable"):
            return node.variable.item()
        return next(v for v in values if v.grad_fn is node).item()

    found: list[list[tuple]] = []

    def walk(node, trail: list[tuple]) -> None:
        for i, (child, _) in enumerate(node.next_functions):
            if child is None:
                continue
            step = trail + [(node, i)]
            if hasattr(child, "variable"):
                if child.variable is leaf:
                    found.append(step)
            else:
                walk(child, step)

    walk(y.grad_fn, [])
    total = 0.0
    for path in found:
        prod = 1.0
        for node, i in path:
            if node.name() == "MulBackward0":
                prod *= data_of(node.next_functions[1 - i][0])
        total = prod
    return total
