"""A training loop given data its model already fits: one loss per step all the same.

A loop that stops once the loss is small, once it stops changing or once it has fallen far
(an early stop) returns one loss per step on the tests' other data and fewer here, where the
statement's loop still returns ``steps`` losses (``stepped.count``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from micrograph import nn, no_grad, observe
from micrograph import grad as engine_grad

from grader.spec.facts import CONTEXT
from grader.spec.held import held
from grader.spec.stepped import count


def on_fitted_data(train: Callable[[nn.Module, list[list[float]], list[list[float]], float], object],
                   model: Callable[[], nn.Module], inputs: list[list[float]], steps: int,
                   elsewhere: bool) -> list[dict[str, Any]]:
    """``count`` of train given data a new ``model()`` fits at once: its own predictions as the
    targets (the loss 0 at the first step, every gradient 0, and no step changes it), and its first
    row's prediction shifted by ``FIT_SHIFT``, at the lr at which one SGD step fits that row to first
    order (the second loss a tiny fraction of the first).  A loop that stops once the loss is small,
    once it stops changing or once it has fallen far stops on one of them, whatever threshold it
    picked, where the statement's still returns ``steps`` losses.  ``~converged`` where it returned
    fewer there and one per step on the test's other data (``elsewhere``)."""
    return [_on_fitted(train, model(), [list(row) for row in inputs], steps, elsewhere, 0.0),
            _on_fitted(train, model(), [list(inputs[0])], steps, elsewhere, FIT_SHIFT)]  # rows the first call never had


FIT_SHIFT = 0.01
"""How far the one-row run's target is from the model's prediction: its first loss is its square."""


def _on_fitted(train: Callable[[nn.Module, list[list[float]], list[list[float]], float], object], model: nn.Module,
               inputs: list[list[float]], steps: int, elsewhere: bool, shift: float) -> dict[str, Any]:
    """One run of ``on_fitted_data``: the targets ``model``'s predictions plus ``shift``; with a shift,
    one row and the lr 1 / (2 |d prediction / d parameters|^2), the step that moves its prediction
    by the shift, to first order (any lr where there is none: every gradient is 0)."""
    with no_grad():
        targets = [[y.item() + shift for y in row] for row in model(inputs)]
    held(inputs, targets)  # no later list takes their ids (``grader.spec.held``): rows kept by id(inputs) stay right
    lr = 0.1
    if shift:
        slopes = engine_grad(model(inputs)[0][0], list(model.parameters()))
        lr = 0.5 / sum(g.item() ** 2 for g in slopes)
    passes = observe.passes()
    fact = count(train(model, inputs, targets, lr), steps, observe.passes() - passes)
    if fact.get(CONTEXT + "fewer") and elsewhere:
        fact[CONTEXT + "converged"] = True
    return fact
