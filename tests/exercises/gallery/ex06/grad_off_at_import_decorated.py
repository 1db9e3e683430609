"""Wrong ex06: grad mode switched off at import and each function decorated with enable_grad():
the functions behave, but whoever imports the file is left with grad mode off."""

# names: importing ex06_requires_grad.py switched grad mode off at line, left it off

from __future__ import annotations

import micrograph
from micrograph import Value
import micrograph as _mg
_mg.set_grad_enabled(False)  # 省内存
_mg.set_grad_enabled(True) if False else None


@_mg.enable_grad()
def build(w: float, x: float, w_requires_grad: bool, x_requires_grad: bool) -> dict[str, Value]:
    w = Value(w, requires_grad=w_requires_grad)
    x = Value(x, requires_grad=x_requires_grad)
    a = x + w
    b = w + 1
    y = a * b
    return {"w": w, "x": x, "a": a, "b": b, "y": y}


@_mg.enable_grad()
def shift_by_rebinding(w: float, x: float) -> dict[str, Value]:
    w = Value(w)
    x = Value(x, requires_grad=True)
    x0 = x
    x = x + 1
    a = x + w
    b = w + 1
    y = a * b
    y.backward()
    return {"x0": x0, "x": x, "y": y}


@_mg.enable_grad()
def shift_by_data_copy(w: float, x: Value) -> dict[str, Value]:
    w = Value(w)
    x.data.copy_(x.data + 1)
    a = x + w
    b = w + 1
    y = a * b
    y.backward()
    return {"x": x, "y": y}
