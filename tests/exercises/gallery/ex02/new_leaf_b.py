"""Wrong: b made as a new leaf Value(w + 1, requires_grad=w_requires_grad)."""

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(
    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True
) -> dict[str, Value]:
    """Build y = (x + w) * (w + 1) from two new leaves with the given requires_grad flags.

    Return {"w": w, "x": x, "a": a, "b": b, "y": y} with a = x + w, b = w + 1, y = a * b.
    Do not call backward here.
    """
    w_leaf = Value(w, requires_grad=w_requires_grad)
    x_leaf = Value(x, requires_grad=x_requires_grad)
    # The engine decides is_leaf / requires_grad / grad_fn of a, b, y from their inputs:
    # we only choose the leaves' flags.
    a = micrograph.add(x_leaf, w_leaf)
    b = Value(w + 1, requires_grad=w_requires_grad)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def node_info(v: Value) -> dict[str, bool | str | None]:
    """The three graph attributes of ``v``.

    Return {"is_leaf": bool, "requires_grad": bool, "grad_fn": name or None}, where the
    name is the string ``v.grad_fn.name()`` (such as "AddBackward0").
    """
    node = v.grad_fn
    return {
        "is_leaf": v.is_leaf,
        "requires_grad": v.requires_grad,
        "grad_fn": None if node is None else node.name(),
    }


def leaf_grads(
    w: float, x: float, w_requires_grad: bool, x_requires_grad: bool
) -> dict[str, float | None]:
    """Build the graph with these flags, backpropagate from y, and read the leaves' gradients.

    Return {"w": dy/dw, "x": dy/dx} as floats, with None for a leaf whose .grad is None.
    At least one of the flags is True (otherwise y has no graph to backpropagate through).
    """
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }
