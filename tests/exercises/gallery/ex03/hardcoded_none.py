"""Wrong ex03: the leaves' gradients are read, but the non-leaves' None is written down instead
of read (so no warning is ever raised)."""

import warnings

from micrograph import Value, add, mul


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def grads_after_backward(w, x):
    g = build_graph(w, x)
    g["y"].backward()
    return {"w": g["w"].grad, "x": g["x"].grad, "a": None, "b": None, "y": None}


def grad_warning(v):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad
    return str(caught[0].message) if caught else None


def backward_retaining(w, x, names):
    g = build_graph(w, x)
    for name in names:
        g[name].retain_grad()
    g["y"].backward()
    return g

# names: grads_after_backward did not read the .grad of each of a, b and y, a None written down raises none
