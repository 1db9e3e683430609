"""An error raised after the student's code called a function the probe gave it with grad mode off.

ex09's sgd_step is given loss_fn by the probe; ex04's backward_twice calls the build_graph given with
the exercise.  Called inside the student's ``no_grad`` block, such a function computes a result
that no graph records, and the backward from it raises the engine's "element 0 of tensors does
not require grad and does not have a grad_fn" at the backward line, which names neither no_grad
nor the function.  The probe gives the call a ``ModeNoted`` loss_fn, or watches build_graph with
``grader.spec.given.given_calls``; each notes the grad mode of each call; an error of that kind
raised after its last call ran with grad mode off is raised again as ``GivenUnderNoGrad``
(``grader.judge.explain`` tells it with that fact).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

import micrograph

from grader.spec.probe import raised_again_as
from grader.spec.raised import NO_GRAD_FN


class GivenUnderNoGrad(Exception):
    """The function a test called raised the engine's "does not have a grad_fn" after it called
    the function it was given with grad mode off.  Its message is ``"<function> <given> <error's
    text>"``; it is raised with the error's traceback, so the grader sees the line it came from."""


class ModeNoted:
    """A function given to the student's code, which notes whether grad mode was on at each call."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.modes: list[bool] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.modes.append(micrograph.is_grad_enabled())
        return self.fn(*args, **kwargs)


class Noted(Protocol):
    """A given function's record of the grad mode at each of its calls (``ModeNoted``, ``GivenCalls``)."""

    modes: list[bool]


def told_if_untracked(given: Noted, function: str, name: str) -> AbstractContextManager[None]:
    """While the student's ``function`` runs with ``given`` (its argument ``name``): the engine's
    "does not have a grad_fn" raised after the last call of ``given`` ran with grad mode off is
    raised again as ``GivenUnderNoGrad``."""
    def words(exc: Exception) -> str | None:
        off = NO_GRAD_FN in str(exc) and bool(given.modes) and not given.modes[-1]
        return f"{function} {name}" if off else None
    return raised_again_as(GivenUnderNoGrad, words)
