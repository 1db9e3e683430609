"""Correct, written differently: micrograph.backward for both calls, grads read through a
helper, the error kept in a list."""

import micrograph
from micrograph import Value


def build_graph(w, x):
    w_leaf, x_leaf = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = x_leaf + w_leaf
    b = 1 + w_leaf
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": a * b}


def _grad(v):
    return v.grad.item()


def backward_twice(w, x, retain_graph):
    g = build_graph(w, x)
    micrograph.backward([g["y"]], retain_graph=retain_graph)
    seen, errors = [_grad(g["w"])], []
    try:
        micrograph.backward([g["y"]])
    except RuntimeError as e:
        errors.append(e)
    seen.append(_grad(g["w"]))
    return (errors[0] if errors else None), seen


def second_backward_error(build, w):
    leaf = Value(w, requires_grad=True)
    y = build(leaf)
    errors = []
    for _ in range(2):
        try:
            y.backward()
        except RuntimeError as e:
            errors.append(e)
    return errors[0] if errors else None
