"""Wrong ex06: the documents' numbers (w = 1, x = 2) hard-coded in the rebinding example, and
the leaf changed with an in-place add under no_grad instead of through x.data."""

import micrograph
from micrograph import Value


def build(w, x, w_requires_grad, x_requires_grad):
    w, x = Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad)
    a, b = micrograph.add(x, w), micrograph.add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": micrograph.mul(a, b)}


def shift_by_rebinding(w, x):
    w = Value(1.0)
    x0 = x = Value(2.0, requires_grad=True)
    x = x + 1
    y = (x + w) * (w + 1)
    y.backward()
    return {"x0": x0, "x": x, "y": y}


def shift_by_data_copy(w, x):
    w = Value(w)
    with micrograph.no_grad():
        x += 1
    y = (x + w) * (w + 1)
    y.backward()
    return {"x": x, "y": y}

# names: changed in place
