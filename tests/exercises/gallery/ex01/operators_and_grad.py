"""Correct, written differently: operators in another order, micrograph.grad instead of
backward, an explicit stack for the paths, and the chain rule as a sum over those paths."""

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    weight = Value(w, requires_grad=True)
    inp = Value(x, requires_grad=True)
    b = 1 + weight
    a = weight + inp
    return {"w": weight, "x": inp, "a": a, "b": b, "y": b * a}


def backprop(w: float, x: float) -> tuple[float, float]:
    g = build_graph(w, x)
    dw, dx = micrograph.grad(g["y"], [g["w"], g["x"]])
    return float(dw.item()), float(dx.item())


def _edges(node):
    return [(i, child) for i, (child, _) in enumerate(node.next_functions) if child is not None]


def _all_paths(y: Value, leaf: Value) -> list[list[tuple[object, int]]]:
    """Every path as [(node, index of the input taken), ...], ending at leaf's AccumulateGrad."""
    done, stack = [], [(y.grad_fn, [])]
    while stack:  # depth first, inputs in next_functions order
        node, trail = stack.pop()
        if node is None:
            done.append(trail)
            continue
        for i, child in reversed(_edges(node)):
            step = trail + [(node, i)]
            if getattr(child, "variable", None) is leaf:
                stack.append((None, step))
            elif not hasattr(child, "variable"):
                stack.append((child, step))
    return done


def paths(y: Value, leaf: Value) -> list[list[str]]:
    return [[node.name() for node, _ in path] for path in _all_paths(y, leaf)]


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    made = {id(v.grad_fn): v for v in values if v.grad_fn is not None}

    def data_of(node) -> float:
        return node.variable.item() if hasattr(node, "variable") else made[id(node)].item()

    total = 0.0
    for path in _all_paths(y, leaf):
        product = 1.0
        for node, i in path:
            if node.name() == "MulBackward0":
                product *= data_of(node.next_functions[1 - i][0])
        total += product
    return total
