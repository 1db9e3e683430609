"""Correct, written differently: requires_grad_() on the leaves, operators in another order,
is_leaf read as "no grad_fn", the op's name from its class, backward(inputs=...)."""

from micrograph import Value


def build_graph(w, x, w_requires_grad=True, x_requires_grad=True):
    w_leaf = Value(w).requires_grad_(w_requires_grad)
    x_leaf = Value(x).requires_grad_(x_requires_grad)
    a = w_leaf + x_leaf
    b = 1 + w_leaf
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": b * a}


def node_info(v):
    fn = v.grad_fn
    return {"grad_fn": None if fn is None else type(fn).__name__,
            "requires_grad": bool(v.requires_grad), "is_leaf": fn is None}


def leaf_grads(w, x, w_requires_grad, x_requires_grad):
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    wanted = [g[n] for n in ("w", "x") if g[n].requires_grad]
    g["y"].backward(inputs=wanted)
    out = {}
    for n in ("w", "x"):
        out[n] = g[n].grad.item() if g[n].grad is not None else None
    return out
