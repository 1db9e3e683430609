"""Wrong ex07: grad mode switched off at import and each function decorated with enable_grad():
the functions behave, but whoever imports the file is left with grad mode off."""

# names: importing ex07_inplace.py switched grad mode off at line, left it off

from __future__ import annotations

from typing import Callable

from micrograph import Value
import micrograph as _mg
_mg.set_grad_enabled(False)  # 省内存
_mg.set_grad_enabled(True) if False else None


@_mg.enable_grad()
def inplace_on_leaf(w: float, amount: float) -> dict[str, object]:
    w = Value(w, requires_grad=True)
    error = None
    try:
        w.add_(amount)
    except RuntimeError as e:
        error = e
    return {"w": w, "error": error}


@_mg.enable_grad()
def rebind_then_inplace(start: float) -> list[Value]:
    a = Value(start)
    a0 = a
    a = a + 1
    a1 = a
    a += 1
    a2 = a
    return [a0, a1, a2]


@_mg.enable_grad()
def modify_saved_value(
    w: float, x: float, times: int, combine: Callable[[Value, Value], Value]
) -> dict[str, object]:
    w = Value(w, requires_grad=True)
    x = Value(x, requires_grad=True)
    a = x + w
    b = w + 1
    y = combine(a, b)
    for _ in range(times):
        a.add_(1)
    error = None
    try:
        y.backward()
    except RuntimeError as e:
        error = e
    return {"w": w, "x": x, "a": a, "y": y, "error": error}
