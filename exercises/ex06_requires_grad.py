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
    """Build a = x + w, b = w + 1, y = a * b from two new leaves with the given flags.

    Return {"w": w, "x": x, "a": a, "b": b, "y": y}.  Do not call backward.
    """
    # TODO: create the two leaves with requires_grad=<flag>, then a, b and y
    raise NotImplementedError("ex06: build")


def shift_by_rebinding(w: float, x: float) -> dict[str, Value]:
    """The documents' example 3 with ``x = x + 1``.

    Make w = Value(w) (no grad) and x = Value(x, requires_grad=True); keep the original leaf
    as ``x0 = x``; then rebind ``x = x + 1``; build a, b, y from w and the new x; call
    y.backward().  Call no ``retain_grad()``: the new x is a non-leaf, and its ``.grad`` stays
    None after backward, as in the documents.  Return {"x0": x0, "x": x, "y": y}.
    """
    # TODO: keep a reference to the leaf, rebind x, build y, backpropagate
    raise NotImplementedError("ex06: shift_by_rebinding")


def shift_by_data_copy(w: float, x: Value) -> dict[str, Value]:
    """The same, but add 1 to the leaf x with ``x.data.copy_(x.data + 1)`` instead of rebinding.

    ``x`` is a leaf Value(..., requires_grad=True) made by the caller, who keeps it to check
    that it is still the same leaf afterwards.  Make w = Value(w) (no grad); change x through
    its ``.data``; build a, b, y from w and x; call y.backward().  Return {"x": x, "y": y}.
    """
    # TODO: change x's value through x.data, build y, backpropagate
    raise NotImplementedError("ex06: shift_by_data_copy")
