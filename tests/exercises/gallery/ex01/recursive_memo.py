"""Correct, written differently: micrograph.add/mul with operands swapped, recursion with a
generator for the paths, and the chain rule memoised per node."""

from __future__ import annotations

from functools import lru_cache

from micrograph import Value, add, mul


def build_graph(w: float, x: float) -> dict[str, Value]:
    nodes = {"w": Value(w, requires_grad=True), "x": Value(x, requires_grad=True)}
    nodes["a"] = add(nodes["w"], nodes["x"])
    nodes["b"] = add(1.0, nodes["w"])
    nodes["y"] = mul(nodes["a"], nodes["b"])
    return nodes


def backprop(w: float, x: float) -> tuple[float, float]:
    nodes = build_graph(w, x)
    nodes["y"].backward()
    return nodes["w"].grad.item(), nodes["x"].grad.item()


def _walk(node, leaf, prefix):
    here = prefix + [node.name()]
    for child, _ in node.next_functions:
        if child is None:
            continue
        if hasattr(child, "variable"):
            if child.variable is leaf:
                yield here
        else:
            yield from _walk(child, leaf, here)


def paths(y: Value, leaf: Value) -> list[list[str]]:
    return list(_walk(y.grad_fn, leaf, []))


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    def value_at(node) -> float:
        if hasattr(node, "variable"):
            return node.variable.item()
        for v in values:
            if v.grad_fn is node:
                return v.item()
        raise LookupError(node)

    @lru_cache(maxsize=None)
    def derivative(node) -> float:
        if hasattr(node, "variable"):
            return float(node.variable is leaf)
        inputs = [child for child, _ in node.next_functions]
        total = 0.0
        for i, child in enumerate(inputs):
            if child is None:
                continue
            local = value_at(inputs[1 - i]) if node.name() == "MulBackward0" else 1.0
            total += local * derivative(child)
        return total

    return derivative(y.grad_fn)
