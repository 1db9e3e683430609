# names: a hook your code registered
from __future__ import annotations

from typing import Any

import micrograph
from micrograph import Value

Matrix = list[list[Value]]


def build(x_row: list[float], y_rows: list[list[float]]) -> dict[str, Any]:
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v) for v in row] for row in y_rows]
    loss = micrograph.mm(x, y)
    return {"x": x, "y": y, "loss": loss}


def x_grads(x: Matrix) -> list[float]:
    """The gradients of x's entries as floats (x is one row; given: you need not edit it)."""
    return [v.grad.item() for v in x[0]]


def vjp(x: Matrix, loss: Matrix, v: list[float]) -> list[float]:
    micrograph.backward(loss, [v])
    return x_grads(x)


def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True) -> list[list[float]]:
    m = len(loss[0])
    rows = []
    seen = {}
    for k, leaf in enumerate(x[0]):
        leaf.register_hook(lambda g, k=k: seen.__setitem__(k, g.item()))
    for j in range(m):
        onehot = [[1.0 if i == j else 0.0 for i in range(m)]]
        micrograph.backward(loss, onehot, retain_graph=(j < m - 1))
        rows.append([seen[k] for k in range(len(x[0]))])
        if zero_between:
            for leaf in x[0]:
                leaf.grad.zero_()
    return rows
