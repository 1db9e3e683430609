"""Correct, written differently: one helper reads every .grad, the warning text taken from the
message's args, retain_grad() in a comprehension."""

import warnings

from micrograph import Value, add, mul


def build_graph(w, x):
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = add(wl, xl)
    b = add(1.0, wl)
    return {"w": wl, "x": xl, "a": a, "b": b, "y": mul(b, a)}


def _read(v):
    return v.grad


def grads_after_backward(w, x):
    g = build_graph(w, x)
    g["y"].backward()
    return dict(zip(g, map(_read, g.values())))


def grad_warning(v):
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        _read(v)
    if not records:
        return None
    return records[0].message.args[0]


def backward_retaining(w, x, names):
    g = build_graph(w, x)
    [g[n].retain_grad() for n in names]
    g["y"].backward()
    return g
