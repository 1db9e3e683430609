"""ex03 retain_grad: a non-leaf node keeps its gradient only if you ask.

The idea
--------
During ``y.backward()`` the engine computes a gradient for *every* node of the
computational graph (计算图), but it only stores the ones of leaf nodes (叶子节点) that
require grad, in their ``.grad``.  The gradients of intermediate, non-leaf nodes are
used on the way and then thrown away, to save memory.  So for y = (x + w) * (w + 1)
(a = x + w, b = w + 1, y = a * b), after ``y.backward()``:

    w.grad, x.grad      hold dy/dw and dy/dx
    a.grad, b.grad      are None
    y.grad              is None (y is not a leaf either)

Reading ``.grad`` on a non-leaf is usually a mistake, so the engine warns, exactly like
PyTorch, with a UserWarning that starts "The .grad attribute of a Tensor that is not a
leaf Tensor is being accessed."  It warns on every read, before or after backward.
Leaves never warn (not even a leaf made from no-grad values, whose .grad is None).

To keep a non-leaf's gradient, call ``retain_grad()`` on it *before* ``backward()``:
then ``a.grad`` holds dy/da after backward, and reading it no longer warns.  Asking
after backward is too late: the gradient has already been thrown away.  (The documents
call ``a.retain_grad()`` at w = 1, x = 2 and print a.grad = 2: dy/da = b = w + 1.)

A small example on other numbers:

    import warnings
    u = Value(3.0, requires_grad=True)
    h = u * u                    # a non-leaf
    z = h + u
    h.retain_grad()              # before backward!
    z.backward()
    h.grad.item()                # dz/dh = 1.0; u.grad is 2u + 1 = 7.0

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")    # record every warning, even repeated ones
        (u + 1).grad                       # a non-leaf that was not retained: None
    str(caught[0].message)                 # "The .grad attribute of a Tensor that is ..."

What to write
-------------
Three small functions below.  ``grad_warning`` needs ``import warnings`` at the top of
this file.  Importing the file leaves the warnings filters as the importer had them (its reads
of a non-leaf's ``.grad`` warn): set a filter only inside ``warnings.catch_warnings()``.
"""

from __future__ import annotations

import micrograph
from micrograph import Value


def build_graph(w: float, x: float) -> dict[str, Value]:
    """y = (x + w) * (w + 1) from two new leaves that require grad (given: you need not edit it)."""
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}


def grads_after_backward(w: float, x: float) -> dict[str, Value | None]:
    """Build the graph, call y.backward() (no retain_grad), and return every node's .grad.

    Return {"w": w.grad, "x": x.grad, "a": a.grad, "b": b.grad, "y": y.grad}, each exactly
    what ``.grad`` holds (a Value or None).  Reading a non-leaf's .grad warns, and the grader
    checks that those warnings happened: read every node's .grad, let it warn, and return it.
    """
    # TODO: build_graph, y.backward(), then read .grad of all five nodes
    raise NotImplementedError("ex03: grads_after_backward")


def grad_warning(v: Value) -> str | None:
    """Read ``v.grad`` while recording warnings; return the first warning's text, or None.

    ``v`` is only read: leave it as it was.

    The text is ``str(caught[0].message)``.  Record with ``warnings.catch_warnings(record=True)``
    and ``warnings.simplefilter("always")``, so a warning already shown once is caught again.
    """
    # TODO: import warnings (top of the file); read v.grad inside catch_warnings(record=True)
    raise NotImplementedError("ex03: grad_warning")


def backward_retaining(w: float, x: float, names: list[str]) -> dict[str, Value]:
    """Build the graph, call retain_grad() on each node named in ``names``, then y.backward().

    ``names`` holds some of "a", "b", "y", and is only read: leave the list as it was.  Return
    the dict of the five Values after backward: the retained nodes now hold their gradient
    (dy/da, dy/db, dy/dy = 1) in ``.grad``.
    """
    # TODO: build_graph, retain_grad() on each named node, and only then y.backward()
    raise NotImplementedError("ex03: backward_retaining")
