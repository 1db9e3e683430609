"""ex09 no_grad: computing without building a graph.

The idea
--------
Recording the graph (计算图) costs memory and time: every node keeps the values it needs for
backward.  When no backward will follow (inference, evaluating a model), switch recording off::

    with micrograph.no_grad():
        r = p * 4 + 1            # computed, but nothing recorded

Inside the block ``micrograph.is_grad_enabled()`` is False.  Results computed there do not
require grad, have no ``grad_fn``, and so are leaves (叶子节点), even when their inputs require
grad; to the engine they are constants.  The inputs themselves are unchanged.  When the block
ends, the previous mode comes back.

The other everyday use is the parameter update of gradient descent::

    loss.backward()
    with micrograph.no_grad():
        p -= lr * p.grad         # p.sub_(lr * p.grad): in place, not recorded

It must be done under ``no_grad``:

* without it, ``p -= ...`` is an in-place change of a leaf that requires grad, which the
  engine refuses (``RuntimeError: a leaf Variable that requires grad is being used in an
  in-place operation.``, ex07);
* ``p = p - lr * p.grad`` would be allowed but records a subtraction: the name p then points
  at a new non-leaf Value, and the next backward fills the gradient of the old leaf, not of
  this one.  The parameter must stay the same leaf, changed in place.

``micrograph.set_grad_enabled(flag)`` is the switch with a flag: ``with
micrograph.set_grad_enabled(training):`` records only when ``training`` is True, a common way
to share one forward function between training and evaluation.  (It even turns recording back
on inside a ``no_grad`` block.)

What to write
-------------
Use the ``with`` form of ``micrograph.no_grad()`` and ``micrograph.set_grad_enabled(...)``, so
that the mode is restored when your code is done.
"""

from __future__ import annotations

from typing import Callable

import micrograph
from micrograph import Value



def _graph(w: Value, x: Value | float) -> Value:
    """y = (x + w) * (w + 1), the documents' graph."""
    return (x + w) * (w + 1)


def inference(w: float, x: float) -> dict[str, Value]:
    """Make leaves w and x that require grad; compute y = (x + w) * (w + 1) under no_grad."""
    w = Value(w, requires_grad=True)
    x = Value(x, requires_grad=True)
    with micrograph.no_grad():
        y = _graph(w, x)  # computed, not recorded: y is a plain leaf
    return {"w": w, "x": x, "y": y}


def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float) -> Value:
    """One step of gradient descent on the leaf w (given to you; it requires grad), lr > 0."""
    w.grad = None  # gradients accumulate (ex05): start this step from nothing
    loss = loss_fn(w)
    loss.backward()
    with micrograph.no_grad():
        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad
    return loss


def step_without_no_grad(
    w: Value, loss_fn: Callable[[Value], Value], lr: float
) -> Exception | None:
    """The same step with the update *outside* no_grad: ``w -= lr * w.grad`` raises."""
    loss = loss_fn(w)
    loss.backward()
    try:
        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused
    except RuntimeError as e:
        return e
    return None


def forward(w: Value, x: float, training: bool) -> Value:
    """y = (x + w) * (w + 1), recorded only when ``training`` is True."""
    with micrograph.set_grad_enabled(training):
        return _graph(w, x)
