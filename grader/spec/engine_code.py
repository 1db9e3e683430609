"""Which engine code a frame runs, seen by the probes' profile hook (``provenance.Call``).

The hook sees frames, not calls: these name the engine's code objects and files it looks for, by
identity, so a function the submission wrote under an engine name is never taken for the engine's.
"""

from __future__ import annotations

from types import FrameType
from typing import Any

import micrograph
from grader.spec.raise_site import ENGINE_DIR

GRAD_GETTER = micrograph.Value.grad.fget.__code__
DETACH_IN_PLACE = micrograph.Value.detach_.__code__  # type: ignore[attr-defined]
# The engine's backward walk: its order, its ready queue, its node runner and what runs around a
# node (ex13 asks for your own).
ENGINE_WALK = frozenset(ENGINE_DIR + name for name in ("engine.py", "hooks.py"))
# Engine functions that hand back a Value without computing it: an alias or a copy of a Value
# the student made (``Value(number).detach()`` is no operation on the inputs).
ALIASES = frozenset({"detach", "data", "clone", "detach_", "requires_grad_", "shared", "alias"})


def engine_function(frame: FrameType, given: list[Any]) -> Any:
    """The engine function ``frame`` runs (a module's function or a Value's method), found by
    its code object, or None."""
    code = frame.f_code
    found = [frame.f_globals.get(code.co_name)]
    if given and isinstance(given[0], micrograph.Value):
        found.append(vars(type(given[0])).get(code.co_name))
    return next((f for f in found if getattr(f, "__code__", None) is code), None)


def run_by_engine(frame: FrameType) -> bool:
    """Whether the engine's backward walk is running ``frame`` (a hook or a Function's
    backward the student wrote): the engine turns grad mode off for it, the student did not."""
    caller = frame.f_back
    while caller is not None:
        if caller.f_code.co_filename in ENGINE_WALK:
            return True
        caller = caller.f_back
    return False
