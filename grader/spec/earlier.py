"""The parameters of models given to earlier calls of a training loop, and what a later call did
to them: a loop that keeps its optimizer (or anything) between calls reaches the parameters of
a model it was not given, which only those parameters show (``grader.exercises.ex15``)."""

from __future__ import annotations

from collections.abc import Iterable

from micrograph import Value

MARK = 1.0
"""The gradient ``marked`` gives every parameter."""


def state(parameters: Iterable[Value]) -> str:
    """The parameters' numbers and gradients, exactly (repr: nan equals itself)."""
    return repr([(p.item(), None if p.grad is None else p.grad.item()) for p in parameters])


def marked(parameters: Iterable[Value]) -> str:
    """``state`` after giving every parameter a gradient of 1: an optimizer kept from an earlier
    call clears it (zero_grad) or applies it (step), either of which changes that state, however
    many calls ago the optimizer was made.  Written as it is marked, in one walk: each
    parameter's gradient is then one new Value of 1.0, shared (a step or a zero_grad changes
    every parameter that holds it: each one is read)."""
    mark, seen = Value(MARK), []
    for p in parameters:
        p.grad = mark
        seen.append((p.item(), MARK))
    return repr(seen)
