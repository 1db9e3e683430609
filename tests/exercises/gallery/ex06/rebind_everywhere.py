"""Wrong ex06: x = x + 1 where x.data.copy_ was asked for, and the original leaf not kept."""

import micrograph
from micrograph import Value


def build(w, x, w_requires_grad, x_requires_grad):
    w, x = Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad)
    a, b = micrograph.add(x, w), micrograph.add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": micrograph.mul(a, b)}


def shift_by_rebinding(w, x):
    w, x = Value(w), Value(x, requires_grad=True)
    x = x + 1
    y = (x + w) * (w + 1)
    y.backward()
    return {"x0": x, "x": x, "y": y}


def shift_by_data_copy(w, x):
    w = Value(w)
    x = x + 1
    y = (x + w) * (w + 1)
    y.backward()
    return {"x": x, "y": y}

# names: is a new object
