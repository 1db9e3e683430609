"""Wrong ex04: grad mode switched off at import and each function decorated with enable_grad():
the functions behave, but whoever imports the file is left with grad mode off."""

# names: importing ex04_retain_graph.py switched grad mode off at line, left it off

from __future__ import annotations

from collections.abc import Callable

import micrograph
from micrograph import Value
import micrograph as _mg
_mg.set_grad_enabled(False)  # 省内存


@_mg.enable_grad()
def build_graph(w: float, x: float) -> dict[str, Value]:
    """y = (x + w) * (w + 1) from two new leaves that require grad (given: you need not edit it)."""
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


@_mg.enable_grad()
def backward_twice(
    w: float, x: float, retain_graph: bool
) -> tuple[RuntimeError | None, list[float]]:
    g = build_graph(w, x)
    y, wl = g["y"], g["w"]
    y.backward(retain_graph=retain_graph)
    history = [wl.grad.item()]
    error = None
    try:
        y.backward()
    except RuntimeError as e:
        error = e
    history.append(wl.grad.item())
    return error, history


@_mg.enable_grad()
def second_backward_error(build: Callable[[Value], Value], w: float) -> RuntimeError | None:
    leaf = Value(w, requires_grad=True)
    y = build(leaf)
    y.backward()
    try:
        y.backward()
    except RuntimeError as e:
        return e
    return None
