"""Wrong: paths and grad_by_paths follow only the first input of each node."""

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
        for child in _inputs(node)[:1]:
            if getattr(child, "variable", None) is leaf:
                found.append(trail)
            elif not hasattr(child, "variable"):
                walk(child, trail)

    walk(y.grad_fn, [])
    return found


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    """dy/d(leaf) by hand: the sum over every path of the product of local derivatives."""

    def produced_by(node) -> Value:
        if hasattr(node, "variable"):
            return node.variable
        return next(v for v in values if v.grad_fn is node)

    def local(node, i: int) -> float:
        if node.name().startswith("Mul"):
            other = node.next_functions[1 - i][0]
            return produced_by(other).item()
        return 1.0  # an addition passes the gradient through unchanged

    def d(node) -> float:
        """d(node's output)/d(leaf): sum over this node's inputs of local * downstream."""
        if hasattr(node, "variable"):
            return 1.0 if node.variable is leaf else 0.0
        return sum(
            local(node, i) * d(child)
            for i, (child, _) in enumerate(node.next_functions[:1])
            if child is not None
        )

    return d(y.grad_fn)
