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


def inference(w: float, x: float) -> dict[str, Value]:
    """Make leaves w and x that require grad; compute y = (x + w) * (w + 1) under no_grad.

    Return {"w": w, "x": x, "y": y}.
    """
    # TODO: create the leaves, then compute y inside `with micrograph.no_grad():`
    raise NotImplementedError("ex09: inference")


def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float) -> Value:
    """One step of gradient descent on the leaf w (given to you; it requires grad), lr > 0.

    Clear the old gradient (``w.grad = None``, or a zero .grad that backward then adds this
    step's gradient into), compute ``loss = loss_fn(w)``, backpropagate,
    then under no_grad move w in place by ``-lr * w.grad`` with an operation of the engine
    (``w -= ...``, ``w.sub_(...)``), which w's version counter counts: an update through
    ``.data`` (``w.data -= ...``, older tutorials' spelling) is not counted, and is not this step.
    Leave w.grad as backward left it, and return the loss.
    """
    # TODO: clear the grad, forward, backward, then update w in place inside no_grad
    raise NotImplementedError("ex09: sgd_step")


def step_without_no_grad(
    w: Value, loss_fn: Callable[[Value], Value], lr: float
) -> Exception | None:
    """The same step with the update *outside* no_grad: ``w -= lr * w.grad`` raises.

    Compute the loss and backpropagate as in sgd_step, then try the update without no_grad and
    return the RuntimeError you caught (None if there was none).
    """
    # TODO: forward, backward, then catch the error of the in-place update
    raise NotImplementedError("ex09: step_without_no_grad")


def forward(w: Value, x: float, training: bool) -> Value:
    """y = (x + w) * (w + 1), recorded only when ``training`` is True.

    Compute it inside ``with micrograph.set_grad_enabled(training):`` and return y.
    """
    # TODO: one forward pass under set_grad_enabled(training)
    raise NotImplementedError("ex09: forward")
