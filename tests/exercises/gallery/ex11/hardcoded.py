"""Wrong ex11: the documents' answers hard-coded, and y made to require grad."""

import micrograph
from micrograph import Value


def build(x_row, y_rows):
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v, requires_grad=True) for v in row] for row in y_rows]
    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}


def x_grads(x):
    return [v.grad.item() for v in x[0]]


def vjp(x, loss, v):
    return [3.0, 5.0] if v[0] else [4.0, 6.0]


def jacobian_rows(x, loss, zero_between=True):
    return [[3.0, 5.0], [4.0, 6.0]] if zero_between else [[3.0, 5.0], [7.0, 11.0]]

# names: requires_grad=True
