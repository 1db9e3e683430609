"""Wrong ex02: grad mode switched off at import and each function decorated with enable_grad():
every function behaves, but whoever imports the file is left with grad mode off (a notebook's
later cells, a script's later lines record no graph until something switches it on again)."""


# names: importing ex02_leaves.py switched grad mode off at line, left it off

from __future__ import annotations

import micrograph
from micrograph import Value

micrograph.set_grad_enabled(False)  # 默认不记录


@micrograph.enable_grad()
def build_graph(
    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True
) -> dict[str, Value]:
    w = Value(w, requires_grad=w_requires_grad)
    x = Value(x, requires_grad=x_requires_grad)
    a = micrograph.add(x, w)
    b = micrograph.add(w, 1)
    y = micrograph.mul(a, b)
    return {"w": w, "x": x, "a": a, "b": b, "y": y}


def node_info(v: Value) -> dict[str, bool | str | None]:
    return {
        "is_leaf": v.is_leaf,
        "requires_grad": v.requires_grad,
        "grad_fn": v.grad_fn.name() if v.grad_fn is not None else None,
    }


@micrograph.enable_grad()
def leaf_grads(
    w: float, x: float, w_requires_grad: bool, x_requires_grad: bool
) -> dict[str, float | None]:
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()
    return {k: (g[k].grad.item() if g[k].grad is not None else None) for k in ("w", "x")}
