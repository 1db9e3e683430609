"""Wrong ex11: keeps the graph but never zeroes x.grad, so the records accumulate."""

import micrograph
from micrograph import Value


def build(x_row, y_rows):
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v) for v in row] for row in y_rows]
    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}


def x_grads(x):
    return [v.grad.item() for v in x[0]]


def vjp(x, loss, v):
    micrograph.backward(loss, [v])
    return x_grads(x)


def jacobian_rows(x, loss, zero_between=True):
    m = len(loss[0])
    rows = []
    for j in range(m):
        micrograph.backward(loss, [[1.0 if i == j else 0.0 for i in range(m)]], retain_graph=True)
        rows.append(x_grads(x))
    return rows
