"""Wrong ex02: leaf_grads returns the documents' numbers (w=1, x=2) instead of computing them."""

from micrograph import Value, add, mul


def build_graph(w, x, w_requires_grad=True, x_requires_grad=True):
    w, x = Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def node_info(v):
    return {"is_leaf": v.is_leaf, "requires_grad": v.requires_grad,
            "grad_fn": None if v.grad_fn is None else v.grad_fn.name()}


def leaf_grads(w, x, w_requires_grad, x_requires_grad):
    return {"w": 5.0 if w_requires_grad else None, "x": 2.0 if x_requires_grad else None}
