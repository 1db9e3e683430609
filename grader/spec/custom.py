"""Facts of a student's custom Function (ex14) that its results alone do not show.

``grad_off_in``: whether the student's code turned grad mode off while a block ran: a Function's
backward run under ``create_graph=True`` (where the engine keeps grad mode on, so a gradient it
returns can be differentiated again) that turns it off itself (``with no_grad():`` around its
formula, ``set_grad_enabled(False)``, ``inference_mode()``).

A profile hook sees every call made while the block runs, and notes a call of the engine's grad
mode code (told by its module's globals: reading frames' code is audited) made from the student's
module (its caller runs under the module's globals) that returns with grad mode off.  Grad mode
off for another reason (the forward of a Function backward applies runs under no_grad, as in
torch) is not the student's.  Only around a small call: the hook sees every call.

``backward_again``: whether a node's backward, run a second time (the graph kept by
``retain_graph=True``), passed on what it did the first time (a bound kept in a module-level
stack, popped by each backward, does not).  ``returned_input``: whether forward returned the input
it was given as it is, not a new Value (the result then changes with it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, ModuleType

import math
from typing import Any

import micrograph
from micrograph import Value, grad_mode, inference

from grader.spec.facts import Check
from grader.spec.probe import num
from grader.spec.provenance import check

_SWITCHES = (vars(grad_mode), vars(inference))  # the globals the engine's grad mode switches run under


@contextlib.contextmanager
def grad_off_in(sub: ModuleType) -> Iterator[list[bool]]:
    """A list that holds True once the block is done if the student's module turned grad mode off
    while it ran (see the module doc), else stays empty."""
    seen: list[bool] = []
    namespace = vars(sub)
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event == "return" and not seen and any(frame.f_globals is s for s in _SWITCHES) \
                and not micrograph.is_grad_enabled():
            caller = frame.f_back
            if caller is not None and caller.f_globals is namespace:
                seen.append(True)

    setprofile(sample)
    try:
        yield seen
    finally:
        setprofile(previous)


def backward_again(name: str, first: object, x: Value, raised: bool) -> dict[str, Any]:
    """The BACKWARD_AGAIN fact of ``name``'s node: the second backward through it (the graph kept
    by retain_graph=True) added to x.grad what the first wrote (``first``).  It holds where it
    cannot be judged: the second raised (an ERROR fact tells it), or no gradient was written."""
    second = num(x.grad) if isinstance(x.grad, Value) else None
    holds = (raised or type(first) is not float or type(second) is not float
             or math.isclose(second, 2 * first, rel_tol=1e-9, abs_tol=1e-12))
    return check(Check.BACKWARD_AGAIN, holds, f"{name}.backward")


def returned_input(name: str, y: object, before: object) -> dict[str, Any]:
    """The OUTPUT_APART fact of ``name``'s forward, once the input it was given was changed in
    place: what apply returned still holds the number it had then (``before``)."""
    moved = isinstance(y, Value) and num(y) != before
    return check(Check.OUTPUT_APART, not moved, f"{name}.forward")
