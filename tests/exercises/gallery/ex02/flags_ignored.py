"""Wrong ex02: build_graph ignores the requires_grad flags (every leaf requires grad)."""

from micrograph import Value, add, mul


def build_graph(w, x, w_requires_grad=True, x_requires_grad=True):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def node_info(v):
    return {"is_leaf": v.is_leaf, "requires_grad": v.requires_grad,
            "grad_fn": None if v.grad_fn is None else v.grad_fn.name()}


def leaf_grads(w, x, w_requires_grad, x_requires_grad):
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()
    return {k: g[k].grad.item() for k in ("w", "x")}
