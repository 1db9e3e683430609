"""Wrong ex06: every leaf made with requires_grad=True, whatever the flags say."""

import micrograph
from micrograph import Value


def build(w, x, w_requires_grad, x_requires_grad):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = micrograph.add(x, w), micrograph.add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": micrograph.mul(a, b)}


def shift_by_rebinding(w, x):
    w = Value(w)
    x0 = x = Value(x, requires_grad=True)
    x = x + 1
    y = (x + w) * (w + 1)
    y.backward()
    return {"x0": x0, "x": x, "y": y}


def shift_by_data_copy(w, x):
    w = Value(w)
    x.data.copy_(x.data + 1)
    y = (x + w) * (w + 1)
    y.backward()
    return {"x": x, "y": y}

# names: requires_grad=True
