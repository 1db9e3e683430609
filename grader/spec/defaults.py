"""The default arguments of the stubs' signatures, probed: a function called with an argument
left out must do what it does with the stub's default written out.

The other probes pass every argument, so a default changed in the student's signature
(``set_to_none: bool = False`` where the stub says ``True``) is never seen by them; a caller
that leaves it out, as the statement's own uses do (``zero_grad(leaves)``,
``grad_history(w, x, 4)``), gets another behaviour.  ``default_kept`` makes both calls, each on
inputs of its own, and compares what a student sees of the two results (``seen``).  Each call is
the first of a fresh import of the student's file (``repeat.fresh_copy``): a result kept between
calls (a module-level list of rows) would make the second differ from the first whatever the
default, and the sentence would blame the signature.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from grader.spec.facts import Check
from grader.spec.provenance import check
from grader.spec.repeat import fresh_copy


def default_kept(sub: ModuleType, left_out: Callable[[ModuleType], Any], written: Callable[[ModuleType], Any],
                 seen: Callable[[Any], Any], label: str) -> dict[str, Any]:
    """The DEFAULT_KEPT fact, labelled ``label`` (the call with the argument left out, as code):
    ``left_out(module)`` and ``written(module)`` (the same call with the stub's default given),
    each on a fresh copy of ``sub`` (``sub`` itself where none can be made), look alike through
    ``seen``.  A call that raises is seen as the type of what it raised (a signature without the
    default raises TypeError where the other call returns)."""
    return check(Check.DEFAULT_KEPT, _outcome(sub, left_out, seen) == _outcome(sub, written, seen), label)


def _outcome(sub: ModuleType, call: Callable[[ModuleType], Any], seen: Callable[[Any], Any]) -> str:
    try:
        return repr(seen(call(fresh_copy(sub) or sub)))  # repr: exact, and nan equals itself
    except Exception as error:  # noqa: BLE001 - told as the other call's difference
        return f"raised {type(error).__name__}"
