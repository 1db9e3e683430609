"""Correct, written differently: the warning turned into an error and caught, retain_grad()
through getattr, backward through micrograph.backward, grads read in a loop."""

import warnings

import micrograph
from micrograph import Value


def build_graph(w, x):
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = x_leaf + w_leaf
    b = w_leaf + 1
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": a * b}


def grads_after_backward(w, x):
    nodes = build_graph(w, x)
    micrograph.backward([nodes["y"]])
    result = {}
    for name in ("w", "x", "a", "b", "y"):
        result[name] = nodes[name].grad
    return result


def grad_warning(v):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            v.grad
        except UserWarning as warning:
            return str(warning)
    return None


def backward_retaining(w, x, names):
    nodes = build_graph(w, x)
    for name in set(names):
        getattr(nodes[name], "retain_grad")()
    nodes["y"].backward()
    return nodes
