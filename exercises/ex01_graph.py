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
    """Build y = (x + w) * (w + 1) from two new leaves that require grad.

    Return the dict {"w": w, "x": x, "a": a, "b": b, "y": y} of the five Values, with
    a = x + w, b = w + 1 and y = a * b.  Do not call backward here.
    """
    # TODO: create the leaves, then a, b and y with micrograph.add / micrograph.mul
    raise NotImplementedError("ex01: build_graph")


def backprop(w: float, x: float) -> tuple[float, float]:
    """Build the graph, backpropagate from y, and return (dy/dw, dy/dx) as two floats."""
    # TODO: call build_graph, then y.backward(), then read the leaves' .grad
    raise NotImplementedError("ex01: backprop")


def paths(y: Value, leaf: Value) -> list[list[str]]:
    """Every path from y down to ``leaf``, as the names of the grad_fn nodes it passes through.

    Walk ``node.next_functions`` from ``y.grad_fn``; a path ends when a next function is the
    leaf's AccumulateGrad node (``node.variable is leaf``).  For the graph above and leaf w the
    answer is [["MulBackward0", "AddBackward0"], ["MulBackward0", "AddBackward0"]] (via a, then
    via b), in the order of ``next_functions``.  Work for any graph of adds and products.
    """
    # TODO: a depth-first walk over next_functions, collecting node.name() along the way
    raise NotImplementedError("ex01: paths")


def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    """dy/d(leaf) by hand: the sum over every path of the product of local derivatives.

    ``values`` holds every Value in the graph, so you can find the Value a node produced
    (``v.grad_fn is node``) or holds (``node.variable``): a product passes to each factor the
    other factor's data.  Walk the graph only; do not call backward.  Work for any graph of
    additions and of products of two Values.
    """
    # TODO: the same walk as paths(), multiplying local derivatives and summing over paths
    raise NotImplementedError("ex01: grad_by_paths")
