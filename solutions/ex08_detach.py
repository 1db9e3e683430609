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
    """The documents' example: change w through its detached copy."""
    w = Value(w, requires_grad=True)
    x = Value(x, requires_grad=True)
    y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))
    y.backward()
    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed
    w_detach.fill_(new)  # writes into the shared number, so w changes too
    return {"w": w, "x": x, "y": y, "w_detach": w_detach}


def detach_cuts_graph(w: float) -> dict[str, Value]:
    """The same product with and without a cut."""
    w_full = Value(w, requires_grad=True)
    w_cut = Value(w, requires_grad=True)
    y_full = w_full * w_full  # both factors lead back to w_full: dy/dw = 2w
    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut
    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w
    y_full.backward()
    y_cut.backward()
    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut,
            "w_cut_detached": w_cut_detached}


def backward_of_detached(w: float) -> Exception | None:
    """Make a leaf w that requires grad, compute z = (w * 2).detach(), and try z.backward()."""
    w = Value(w, requires_grad=True)
    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it
    try:
        z.backward()
    except RuntimeError as e:
        return e
    return None
