"""The default arguments of the stubs' signatures, probed: a function called with an argument
left out must do what it does with the stub's default written out.

The other probes pass every argument, so a default changed in the student's signature
(``set_to_none: bool = False`` where the stub says ``True``) is never seen by them; a caller
that leaves it out, as the statement's own uses do (``zero_grad(leaves)``,
``grad_history(w, x, 4)``), gets another behaviour.  ``default_kept`` makes both calls, each on
inputs of its own, and compares what a student sees of the two results (``seen``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.spec.facts import Check
from grader.spec.provenance import check


def default_kept(left_out: Callable[[], Any], written: Callable[[], Any], seen: Callable[[Any], Any],
                 label: str) -> dict[str, Any]:
    """The DEFAULT_KEPT fact, labelled ``label`` (the call with the argument left out, as code):
    ``left_out()`` and ``written()`` (the same call with the stub's default given) look alike
    through ``seen``.  A call that raises is seen as the type of what it raised (a signature
    without the default raises TypeError where the other call returns)."""
    return check(Check.DEFAULT_KEPT, _outcome(left_out, seen) == _outcome(written, seen), label)


def _outcome(call: Callable[[], Any], seen: Callable[[Any], Any]) -> str:
    try:
        return repr(seen(call()))  # repr: exact, and nan equals itself
    except Exception as error:  # noqa: BLE001 - told as the other call's difference
        return f"raised {type(error).__name__}"
