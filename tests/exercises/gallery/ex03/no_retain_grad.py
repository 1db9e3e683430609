"""Wrong ex03: backward_retaining never calls retain_grad()."""

import warnings

from micrograph import Value, add, mul


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def grads_after_backward(w, x):
    g = build_graph(w, x)
    g["y"].backward()
    return {k: v.grad for k, v in g.items()}


def grad_warning(v):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad
    return str(caught[0].message) if caught else None


def backward_retaining(w, x, names):
    g = build_graph(w, x)
    g["y"].backward()
    return g

# names: retain_grad() was not called
