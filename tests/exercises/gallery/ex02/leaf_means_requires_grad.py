"""Wrong ex02: node_info believes a leaf is a Value that requires grad, and prints grad_fn."""

from micrograph import Value, add, mul


def build_graph(w, x, w_requires_grad=True, x_requires_grad=True):
    w, x = Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def node_info(v):
    return {"is_leaf": v.requires_grad and v.grad_fn is None, "requires_grad": v.requires_grad,
            "grad_fn": None if v.grad_fn is None else str(v.grad_fn)}


def leaf_grads(w, x, w_requires_grad, x_requires_grad):
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()
    return {k: None if g[k].grad is None else g[k].grad.item() for k in ("w", "x")}
