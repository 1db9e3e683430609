"""ex01 graph: the computational graph (计算图) of y = (x + w) * (w + 1).

The idea
--------
Every operation on Values that require grad records itself in a graph.  Split
y = (x + w) * (w + 1) into the steps the engine sees:

    a = x + w          a.grad_fn is an AddBackward0 node
    b = w + 1          b.grad_fn is an AddBackward0 node
    y = a * b          y.grad_fn is a MulBackward0 node

w and x are leaf nodes (叶子节点): you created them, so they have no grad_fn.  The graph is
walked backwards from y: ``y.grad_fn.next_functions`` is a tuple of ``(node, 0)`` pairs, one per
input of the operation (``None`` for an input that needs no gradient, like the constant 1).  A
leaf that requires grad is reached through an ``AccumulateGrad`` node whose ``.variable`` is the
leaf itself.

``y.backward()`` applies the chain rule along that graph.  The documents do the same by hand:
dy/dw is the sum, over every path from y down to w, of the product of the local derivatives on
the path.  Here there are two paths, y -> a -> w and y -> b -> w:

    dy/dw = dy/da * da/dw + dy/db * db/dw = b * 1 + a * 1

Local derivatives: an addition passes 1 to each input; a product passes to each factor the
*other* factor's value.

A small example on other numbers: for y = (x + w) * (w + 1) at w = 3, x = -1 we get a = 2,
b = 4, y = 8, and dy/dw = b + a = 6, dy/dx = b = 4.

Watch it run
------------
``grade ex01`` writes ``grades/ex01/backward.html`` beside ``graph.svg``: open it in a browser
and press "next" (or the arrow keys) to see backward run one node at a time.  At w's
``AccumulateGrad`` the two paths meet: the page shows the two gradients arriving and their sum,
which is your sum over paths.  For any graph of your own (in a script or a notebook)::

    from micrograph.viz import trace_backward
    trace_backward(y).save_html("backward.html")

What to write
-------------
Use ``micrograph.add`` and ``micrograph.mul`` (the operators ``+`` and ``*`` do the same).
The order of the operands of a sum or a product is yours: ``w + x`` for ``x + w``, or ``b * a``
for ``a * b``, is the same graph to the tests; ``next_functions`` then lists the inputs in the
order you wrote them.
"""

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    """Build y = (x + w) * (w + 1) from two new leaves that require grad."""
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def backprop(w: float, x: float) -> tuple[float, float]:
    """Build the graph, backpropagate from y, and return (dy/dw, dy/dx) as two floats."""
    g = build_graph(w, x)
    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()


def _inputs(node) -> list:
    """The nodes feeding ``node``, skipping inputs that need no gradient (None)."""
    return [child for child, _ in node.next_functions if child is not None]


def paths(y: Value, leaf: Value) -> list[list[str]]:
    """Every path from y down to ``leaf``, as the names of the grad_fn nodes it passes through."""
    found: list[list[str]] = []

    def walk(node, trail: list[str]) -> None:
        trail = trail + [node.name()]
        for child in _inputs(node):
            if getattr(child, "variable", None) is leaf:
                found.append(trail)
            elif not hasattr(child, "variable"):
                walk(child, trail)

    walk(y.grad_fn, [])
    return found


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    """dy/d(leaf) by hand: the sum over every path of the product of local derivatives."""

    def produced_by(node) -> Value:
        if hasattr(node, "variable"):
            return node.variable
        return next(v for v in values if v.grad_fn is node)

    def local(node, i: int) -> float:
        if node.name().startswith("Mul"):
            other = node.next_functions[1 - i][0]
            return produced_by(other).item()
        return 1.0  # an addition passes the gradient through unchanged

    def d(node) -> float:
        """d(node's output)/d(leaf): sum over this node's inputs of local * downstream."""
        if hasattr(node, "variable"):
            return 1.0 if node.variable is leaf else 0.0
        return sum(
            local(node, i) * d(child)
            for i, (child, _) in enumerate(node.next_functions)
            if child is not None
        )

    return d(y.grad_fn)
