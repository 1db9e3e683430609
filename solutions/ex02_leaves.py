"""ex02 leaves: leaf nodes (叶子节点), requires_grad and grad_fn.

The idea
--------
Every Value carries three attributes that say where it sits in the computational graph (计算图):

* ``is_leaf``: True for a leaf node (叶子节点). A Value you create yourself, like
  ``Value(2.0, requires_grad=True)``, is a leaf: no operation made it.
* ``requires_grad``: whether gradients should flow to this Value. A result requires grad
  as soon as *at least one* of its inputs does.
* ``grad_fn``: the graph node of the operation that produced the Value (``AddBackward0``,
  ``MulBackward0`` ...), or None. ``v.grad_fn.name()`` gives the node's name.

For y = (x + w) * (w + 1) with w and x created with ``requires_grad=True``
(a = x + w, b = w + 1, y = a * b), the documents print:

    node   is_leaf  requires_grad  grad_fn
    w      True     True           None
    x      True     True           None
    a      False    True           AddBackward0
    b      False    True           AddBackward0
    y      False    True           MulBackward0

Three consequences the documents dwell on:

1. A leaf need not require grad. A model's input data is a leaf with
   ``requires_grad=False``: you made it, but nobody wants its gradient, so after
   ``backward()`` its ``.grad`` is still None.
2. Any new Value computed from a Value that requires grad is *not* a leaf, however
   simple the operation: ``c = w + 0`` records an AddBackward0 node, so ``c.is_leaf`` is
   False. (The third document's example 2 makes exactly this point.)
3. A result computed only from Values that do *not* require grad records nothing: its
   ``requires_grad`` is False, its ``grad_fn`` is None, and so it counts as a leaf. In the
   third document's example 3, w is created without ``requires_grad``; then b = w + 1 is
   a leaf, while a = w + x is not (x requires grad).

The rule behind all three: ``is_leaf`` is True exactly when ``grad_fn`` is None, that is,
when no operation was recorded to produce the Value.

A small example on other numbers:

    u = Value(4.0, requires_grad=True)     # leaf, requires grad
    k = Value(10.0)                        # leaf, no grad (think: input data)
    s = u * k                              # not a leaf: MulBackward0, requires grad
    t = k - 3                              # a leaf: nothing recorded, requires_grad False
    s.backward()                           # u.grad is 10.0; k.grad stays None

What to write
-------------
``build_graph`` with flags for each leaf, ``node_info`` to read the three attributes, and
``leaf_grads`` to see which leaves receive a gradient.
"""

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
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def node_info(v: Value) -> dict[str, bool | str | None]:
    """The three graph attributes of ``v``.

    Return {"is_leaf": bool, "requires_grad": bool, "grad_fn": name or None}, where the
    name is the string ``v.grad_fn.name()`` (such as "AddBackward0"). It only reads: ``v``
    is left as it was given (no ``retain_grad()``, no ``requires_grad`` or ``.grad`` changed).
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
