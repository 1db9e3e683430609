"""grad_by_paths finds a product's other factor by identity and, for a Value times itself,
divides the product by the factor: w * w at w = 0 divides by zero."""
# names: ZeroDivisionError

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def backprop(w: float, x: float) -> tuple[float, float]:
    g = build_graph(w, x)
    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()


def paths(y: Value, leaf: Value) -> list[list[str]]:
    result = []

    def walk(node, prefix):
        if node is None:
            return
        if hasattr(node, "variable"):
            if node.variable is leaf:
                result.append(list(prefix))
            return
        for nxt, _ in node.next_functions:
            walk(nxt, prefix + [node.name()])

    walk(y.grad_fn, [])
    return result


def _value_of(node, values):
    for v in values:
        if v.grad_fn is node:
            return v
    return None


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    total = 0.0

    def walk(node, prod):
        nonlocal total
        if node is None:
            return
        if hasattr(node, "variable"):
            if node.variable is leaf:
                total += prod
            return
        inputs = []
        for nxt, _ in node.next_functions:
            inputs.append(nxt)
        out = _value_of(node, values)
        if node.name().startswith("Mul"):
            # find the two factors' Values
            factors = []
            for nxt in inputs:
                if nxt is None:
                    factors.append(None)
                elif hasattr(nxt, "variable"):
                    factors.append(nxt.variable)
                else:
                    factors.append(_value_of(nxt, values))
            for i, nxt in enumerate(inputs):
                mine = factors[i]
                others = [f for f in factors if f is not mine]
                if not others:  # constant factor
                    other_data = out.item() / mine.item()
                else:
                    other_data = others[0].item()
                walk(nxt, prod * other_data)
        else:
            for nxt in inputs:
                walk(nxt, prod * 1.0)

    walk(y.grad_fn, 1.0)
    return total
