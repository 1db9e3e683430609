"""Correct, written differently: operators, requires_grad_() for the flags, other names."""

from micrograph import Value


def build(w, x, w_requires_grad, x_requires_grad):
    weight = Value(w).requires_grad_(w_requires_grad)
    inp = Value(x).requires_grad_(x_requires_grad)
    a = weight + inp
    b = 1 + weight
    return {"w": weight, "x": inp, "a": a, "b": b, "y": b * a}


def shift_by_rebinding(w, x):
    const = Value(w)
    leaf = Value(x, requires_grad=True)
    shifted = leaf + 1
    y = (const + 1) * (const + shifted)
    y.backward()
    return {"x0": leaf, "x": shifted, "y": y}


def shift_by_data_copy(w, x):
    const = Value(w)
    x.data.copy_(x.data + 1.0)
    y = (const + 1) * (x + const)
    y.backward()
    return {"y": y, "x": x}
