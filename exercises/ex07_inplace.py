"""ex07 inplace: in-place operations, object identity, and the version counter.

The idea
--------
An in-place operation (``v.add_(1)``, ``v.mul_(2)``, ``v.fill_(0)``, ``v += 1``) changes the
number stored in ``v`` itself instead of making a new Value.  That clashes with autograd in two
ways, and PyTorch guards against both.

1. A leaf that requires grad (叶子节点, a parameter) cannot be changed in place while grad mode
   is on.  Every gradient is computed from the leaves' values; changing one behind the graph's
   back would make backward wrong, so the engine refuses before changing anything::

       q = Value(0.5, requires_grad=True)
       q.add_(2)    # RuntimeError: a leaf Variable that requires grad is being used in an
                    # in-place operation.     (q is still 0.5)

2. ``v = v + 1`` and ``v += 1`` look alike but are not.  ``v = v + 1`` makes a *new* Value and
   rebinds the name (``id(v)`` changes; the old object is untouched).  ``v += 1`` is
   ``v.add_(1)``: the *same* object (``id(v)`` unchanged) gets a new number.

3. Some operations save their inputs for backward: a product needs the other factor's value
   (d(a*b)/da = b).  If a saved value is changed in place afterwards, backward would use the
   wrong number.  So every Value has a version counter, ``v._version``, that each in-place
   change increases by one; a node remembers the version of what it saved, and backward raises
   ``RuntimeError: one of the variables needed for gradient computation has been modified by
   an inplace operation: ...`` when they differ.  An addition saves nothing (its local
   derivatives are 1), so changing its inputs afterwards is harmless.

   A non-leaf *may* be changed in place (it is not a parameter); the change is recorded::

       p = Value(0.5, requires_grad=True)
       c = p + 3          # c._version == 0
       d = c * p          # the product saves c (and p)
       c.add_(1)          # allowed: c is not a leaf; c._version == 1
       d.backward()       # RuntimeError: ... modified by an inplace operation ...

What to write
-------------
Catch the errors and *return* them (``except RuntimeError as e: error = e``) so the grader can
read them.
"""

from __future__ import annotations

from typing import Callable

from micrograph import Value


def inplace_on_leaf(w: float, amount: float) -> dict[str, object]:
    """Make w = Value(w, requires_grad=True), then try ``w.add_(amount)``.

    Return {"w": w, "error": the RuntimeError you caught}.
    """
    # TODO: try the in-place addition on the leaf and catch the RuntimeError
    raise NotImplementedError("ex07: inplace_on_leaf")


def rebind_then_inplace(start: float) -> list[Value]:
    """Make a = Value(start) (no grad).  Then ``a = a + 1`` and after that ``a += 1``.

    Return [a0, a1, a2]: the object ``a`` named at the start, after ``a = a + 1``, and after
    ``a += 1``.  (Compare ``id(a)`` at each step to see which made a new object.)
    """
    # TODO: keep a reference to a after each of the three steps
    raise NotImplementedError("ex07: rebind_then_inplace")


def modify_saved_value(
    w: float, x: float, times: int, combine: Callable[[Value, Value], Value]
) -> dict[str, object]:
    """Change an input of y in place after y was computed, then try to backpropagate.

    Make leaves w and x that require grad, a = x + w, b = w + 1 and y = combine(a, b)
    (``combine`` is e.g. ``micrograph.mul`` or ``micrograph.add``).  Then call ``a.add_(1)``
    ``times`` times, and then y.backward(), catching the RuntimeError if it raises.

    Return {"w": w, "x": x, "a": a, "y": y, "error": the caught error, or None if backward
    worked}.
    """
    # TODO: build the graph, change a in place, then try y.backward()
    raise NotImplementedError("ex07: modify_saved_value")
