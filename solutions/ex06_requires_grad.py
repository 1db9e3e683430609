"""ex06 requires_grad: which Values are tracked, and how to change a leaf without losing it.

The idea
--------
``requires_grad`` spreads forward through the graph (计算图): a result requires grad as soon as
*any* of its inputs does, and only then does the engine record a ``grad_fn`` for it.  A result
made only from Values that do not require grad records nothing: it has no ``grad_fn``, so it is
a leaf (叶子节点) like a Value you created yourself, and it never receives a gradient.

    p = Value(4.0)                        # requires_grad=False: a constant, a leaf
    q = Value(-1.0, requires_grad=True)   # a parameter, a leaf
    r = p * q                             # requires grad (q does), grad_fn MulBackward0
    s = p - 2                             # no input requires grad: a leaf, grad_fn None

Changing a leaf's value needs care.  ``q = q + 1`` does not change q: it makes a *new* Value
(grad_fn AddBackward0, so not a leaf) and rebinds the name ``q`` to it.  The original leaf is
still in the graph and still receives its gradient; the new ``q`` is a non-leaf, so after
backward its ``.grad`` stays None (and reading it warns).

To change the *value* of a leaf and keep it a leaf, write through ``.data``, which shares the
leaf's number but is not tracked::

    q.data.copy_(q.data + 1)              # q is now 0.0, still a leaf that requires grad

``q.data + 1`` is computed from an untracked Value, so nothing is recorded, and ``copy_``
writes the result into the shared number.  A change through ``.data`` is not even counted by
the leaf's version counter (``q._version`` stays 0; ex07 shows what that counter is for).

This exercise follows the documents' example: y = (x + w) * (w + 1) with w a constant
(requires_grad=False) and x a parameter.  With w = 3 and x = -1: dy/dx = w + 1 = 4.

What to write
-------------
Build every graph as a = x + w, b = w + 1, y = a * b (``micrograph.add`` / ``micrograph.mul``
or the operators).
"""

from __future__ import annotations

import micrograph
from micrograph import Value


def build(w: float, x: float, w_requires_grad: bool, x_requires_grad: bool) -> dict[str, Value]:
    """Build a = x + w, b = w + 1, y = a * b from two new leaves with the given flags."""
    w_leaf = Value(w, requires_grad=w_requires_grad)
    x_leaf = Value(x, requires_grad=x_requires_grad)
    # Each result requires grad if any of its inputs does; b depends on w alone, so with
    # w_requires_grad=False it is a plain leaf even when x and y are tracked.
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def _graph_from(w: Value, x: Value) -> Value:
    """y = (x + w) * (w + 1), the documents' graph."""
    return micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))


def shift_by_rebinding(w: float, x: float) -> dict[str, Value]:
    """The documents' example 3 with ``x = x + 1``."""
    w = Value(w)
    x = Value(x, requires_grad=True)
    x0 = x
    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf
    y = _graph_from(w, x)
    y.backward()  # the gradient flows through the new x down to the leaf x0
    return {"x0": x0, "x": x, "y": y}


def shift_by_data_copy(w: float, x: Value) -> dict[str, Value]:
    """The same, but add 1 to the leaf x with ``x.data.copy_(x.data + 1)`` instead of rebinding."""
    w = Value(w)
    # x.data shares x's number but is not tracked, so this records nothing and x stays a leaf.
    x.data.copy_(x.data + 1)
    y = _graph_from(w, x)
    y.backward()
    return {"x": x, "y": y}
