"""Correct ex11, written differently: mm written out with Python's sum, the one-hot gradient
built from a row of zeros, and the rows gathered with other names."""

import micrograph
from micrograph import Value


def build(x_row, y_rows):
    x = [[Value(value, requires_grad=True) for value in x_row]]
    y = [[Value(value) for value in row] for row in y_rows]
    columns = len(y[0])
    loss = [[sum(x[0][k] * y[k][j] for k in range(len(x_row))) for j in range(columns)]]
    return {"x": x, "y": y, "loss": loss}


def x_grads(x):
    return [leaf.grad.item() for leaf in x[0]]


def vjp(x, loss, v):
    micrograph.backward(loss, [list(v)])
    return [leaf.grad.item() for leaf in x[0]]


def jacobian_rows(x, loss, zero_between=True):
    width = len(loss[0])
    records = []
    for j in range(width):
        seed = [0.0] * width
        seed[j] = 1.0
        micrograph.backward(loss, [seed], retain_graph=j != width - 1)
        records.append(x_grads(x))
        if zero_between:
            for leaf in x[0]:
                leaf.grad.zero_()
    return records
