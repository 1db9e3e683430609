"""ex08 detach: the same number, outside the computational graph (计算图).

The idea
--------
A leaf that requires grad cannot be changed in place (ex07).  ``v.detach()`` is the way out:
it returns a new Value that shares ``v``'s number, like another name for the same memory, but
is cut off from the graph: it does not require grad, has no ``grad_fn``, and is a leaf.

1. Shared data.  Changing the detached Value in place changes the original, and no error is
   raised, because the detached Value does not require grad::

       q = Value(0.5, requires_grad=True)
       q_detach = q.detach()
       q_detach.fill_(-8.0)      # or q_detach.copy_(Value(-8.0))
       q.item()                  # -8.0: q changed too, and is still a leaf that requires grad

   (PyTorch writes ``q_detach.data[0] = -8``; our Values hold one number and have no indexing,
   so use ``fill_`` or ``copy_``.)  The change is real: detach shares the version counter too,
   so if a graph had saved q, its backward would now fail (ex07).  The documents change w only
   after backward, when the graph is done with it.

2. A cut in the graph.  An operation with a detached input treats it as a constant: no
   gradient flows through it.  For u = q * q.detach() the product still has the value q², but
   only the first factor is connected to q, so du/dq = q.detach() = q instead of 2q.

3. A Value computed and then detached has nothing to backpropagate through: calling backward
   on it raises ``RuntimeError: element 0 of tensors does not require grad and does not have a
   grad_fn``.

What to write
-------------
Three small functions; return the Values named in each docstring (the grader reads them).
"""

from __future__ import annotations

import micrograph
from micrograph import Value


def detach_shares_data(w: float, x: float, new: float) -> dict[str, Value]:
    """The documents' example: change w through its detached copy.

    Make leaves w and x that require grad, build y = (x + w) * (w + 1) and call y.backward().
    Then take ``w_detach = w.detach()`` and set it to ``new`` in place, even when w already
    holds that number (the write is what the exercise shows, not only the number it leaves).
    Write nothing into w itself: the change reaches w through the number the two share.

    Return {"w": w, "x": x, "y": y, "w_detach": w_detach}.
    """
    # TODO: build y, backpropagate, then detach w and fill the detached copy with `new`
    raise NotImplementedError("ex08: detach_shares_data")


def detach_cuts_graph(w: float) -> dict[str, Value]:
    """The same product with and without a cut.

    Make two separate leaves that require grad, ``w_full`` and ``w_cut``, both with value w.
    Build y_full = w_full * w_full and y_cut = w_cut * w_cut_detached, where
    w_cut_detached = w_cut.detach(), and call backward on both.  Return {"w_full": w_full,
    "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut, "w_cut_detached": w_cut_detached}.
    """
    # TODO: two leaves, two products (one with a detached factor), two backward calls
    raise NotImplementedError("ex08: detach_cuts_graph")


def backward_of_detached(w: float) -> Exception | None:
    """Make a leaf w that requires grad, compute z = (w * 2).detach(), and try z.backward().

    Return the RuntimeError you caught (None if there was none).
    """
    # TODO: detach the product, then catch the error of its backward
    raise NotImplementedError("ex08: backward_of_detached")
