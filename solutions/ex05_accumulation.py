"""ex05 accumulation: gradients add up in .grad until you clear them.

The idea
--------
``backward()`` does not *set* a leaf's ``.grad``, it *adds* to it.  The first backward
finds ``.grad`` None and stores the gradient; every later one adds its gradient to what
is already there.  So a training loop that builds a fresh graph (计算图) from the same
leaves on every step and calls ``backward()`` each time sees the gradients pile up.  The
documents run y = (x + w) * (w + 1) four times at w = 1, x = 2 and print w.grad:

    5, 10, 15, 20          (dy/dw = 5, added four times)

That is why training loops clear the gradients every step (``optimizer.zero_grad()`` in
PyTorch).  Two ways to clear a leaf's gradient, both giving 5, 5, 5, 5:

* ``w.grad.zero_()``  sets the stored gradient to 0 in place; ``.grad`` stays a Value.
* ``w.grad = None``    drops it; the next backward stores a new one.

Clear *after* reading the step's gradient, as the documents do: before the first
backward ``w.grad`` is None, and ``None.zero_()`` is an AttributeError.

A small example on other numbers:

    u = Value(3.0, requires_grad=True)
    for step in range(3):
        z = u * u                # a new graph every step, from the same leaf
        z.backward()
        u.grad.item()            # 6.0, 12.0, 18.0
    u.grad.zero_()               # u.grad is now 0.0, ready for the next step

Watch it run
------------
``grade ex05`` writes ``grades/ex05/backward.html`` beside ``graph.svg``: open it in a browser
and press "next" (or the arrow keys) to see the first backward pass of your loop write the
leaves' ``.grad``.  Trace two passes in a row on a graph of your own to see the second one add
to the first (the ``grad`` field grows instead of starting over)::

    from micrograph.viz import trace_backward
    trace_backward(y, retain_graph=True).save_html("pass1.html")
    trace_backward(y).save_html("pass2.html")

What to write
-------------
``zero_grad`` clears the gradients of a list of leaves, either way (PyTorch's
``optimizer.zero_grad(set_to_none=...)`` does the same for a model's parameters), and
``grad_history`` runs the steps on the leaves it is given, with the requested reset.
"""

from __future__ import annotations

from micrograph import Value


def zero_grad(leaves: list[Value], set_to_none: bool = True) -> None:
    """Clear the gradient of every leaf in ``leaves``.

    set_to_none=True: set each ``.grad`` to None (the gradient Value it held is left as it
    was).  set_to_none=False: zero each stored gradient in place with ``.grad.zero_()``,
    skipping a leaf whose ``.grad`` is None.  ``leaves`` is only read: leave the list as it
    was given.
    """
    for leaf in leaves:
        if set_to_none:
            leaf.grad = None  # forget it; the next backward stores a new Value
        elif leaf.grad is not None:
            leaf.grad.zero_()  # keep the same Value, set it to 0 in place


def grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:
    """Run ``steps`` training steps on the given leaves and record w.grad after each one.

    Each step builds y = (x + w) * (w + 1) from the leaves ``w`` and ``x`` (do not create new
    leaves), calls ``y.backward()``, and appends ``w.grad`` (as a float) to the history.
    Then, after recording, it clears the gradients of *both* leaves:

    * reset=None:     clear nothing, so the gradients accumulate;
    * reset="zero_":  ``w.grad.zero_()`` and ``x.grad.zero_()``;
    * reset="none":   ``w.grad = None`` and ``x.grad = None``.
    (``zero_grad`` above does either.)

    Return the history, one float per step.
    """
    history: list[float] = []
    for _ in range(steps):
        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared
        y.backward()  # adds dy/dw to whatever w.grad already holds
        history.append(w.grad.item())
        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))
    return history
