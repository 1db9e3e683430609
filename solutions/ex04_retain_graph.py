"""ex04 retain_graph: backward frees the graph's saved values; retain_graph=True keeps them.

The idea
--------
To compute gradients later, an operation saves what its backward step will need: a
product a * b saves a and b (d(ab)/da = b), ``exp`` saves its result, ``w ** 2`` saves w.
PyTorch builds a new computational graph (计算图) on every forward pass (动态图, a dynamic
graph), so once ``backward()`` has used the saved values it frees them to save memory.
Calling ``backward()`` a second time on the same graph then fails with

    RuntimeError: Trying to backward through the graph a second time (or directly access
    saved tensors after they have already been freed). ...

and writes nothing: the leaves' ``.grad`` keep the values of the first call.

``y.backward(retain_graph=True)`` keeps the saved values, so a later ``y.backward()`` works.
The second call *adds* its gradients to the first (gradients accumulate, see ex05): for
y = (x + w) * (w + 1) at w = 1, x = 2 the documents print w.grad 5, then 10.

Which graphs can be run twice anyway?  Only the saved values are freed.  An addition or a
subtraction passes the gradient through unchanged (d(a + b)/da = 1) and saves nothing, so a
graph made only of ``+``, ``-`` and negation can be backpropagated again without
``retain_graph``.  Any product (even by a constant: ``w * 3``), division, power, ``exp``,
``tanh`` ... saves something, and a graph containing one cannot.

A small example on other numbers:

    u = Value(3.0, requires_grad=True)
    z = u * u + 1                    # the product saves u
    z.backward(retain_graph=True)    # u.grad: 6.0, and the saved values are kept
    z.backward()                     # u.grad: 12.0; the saved values are freed now
    try:
        z.backward()                 # a third call fails
    except RuntimeError as error:
        caught = error               # str(caught) starts "Trying to backward through ..."

Watch it run
------------
``grade ex04`` writes ``grades/ex04/backward.html`` beside ``graph.svg``: open it in a browser
and press "next" (or the arrow keys).  After ``MulBackward0`` runs, its saved values grey out:
they are freed, and that is what the second backward trips over.  To watch the second backward
fail, in a script or a notebook::

    from micrograph.viz import trace_backward
    y.backward()
    trace_backward(y, errors="record").save_html("second.html")   # stops at MulBackward0

What to write
-------------
Catch the RuntimeError of a second backward and return it (return the exception object,
do not raise it), and find out which graphs survive a second backward.
"""

from __future__ import annotations

from collections.abc import Callable

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


def backward_twice(
    w: float, x: float, retain_graph: bool
) -> tuple[RuntimeError | None, list[float]]:
    """Backpropagate from y twice and report what happened.

    Build the graph; call ``y.backward(retain_graph=retain_graph)`` and record w.grad; call
    ``y.backward()`` again, catching the RuntimeError it may raise, and record w.grad again.
    Return (the caught RuntimeError, or None if the second call worked,
    [w.grad after the first call, w.grad after the second call] as floats).
    """
    g = build_graph(w, x)
    y, w_leaf = g["y"], g["w"]
    y.backward(retain_graph=retain_graph)
    history = [w_leaf.grad.item()]
    error = None
    try:
        y.backward()
    except RuntimeError as exc:
        error = exc  # the graph's saved values were freed by the first call
    history.append(w_leaf.grad.item())
    return error, history


def second_backward_error(build: Callable[[Value], Value], w: float) -> RuntimeError | None:
    """Does the graph that ``build`` makes survive a second backward without retain_graph?

    Create a leaf ``Value(w, requires_grad=True)``, let ``y = build(leaf)``, call
    ``y.backward()`` once, then once more.  Return the RuntimeError the second call raises,
    or None if it works.  (``build`` is a function such as ``lambda v: v * 3 + 1``.)
    """
    y = build(Value(w, requires_grad=True))
    y.backward()
    try:
        y.backward()
    except RuntimeError as exc:
        return exc  # some node on the way saved a value, and it is gone
    return None  # nothing was saved (additions only), so nothing was freed
