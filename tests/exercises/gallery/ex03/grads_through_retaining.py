# names: backward_retaining
from __future__ import annotations

import warnings

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    """y = (x + w) * (w + 1) from two new leaves that require grad (given: you need not edit it)."""
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def grads_after_backward(w: float, x: float) -> dict[str, Value | None]:
    g = backward_retaining(w, x, [])
    return {k: g[k].grad for k in ("w", "x", "a", "b", "y")}


def grad_warning(v: Value) -> str | None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v.grad
    if caught:
        return str(caught[0].message)
    return None


def backward_retaining(w: float, x: float, names: list[str]) -> dict[str, Value]:
    g = build_graph(w, x)
    for n in names + ["y"]:
        g[n].retain_grad()
    g["y"].backward()
    return g
