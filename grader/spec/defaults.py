"""The default arguments of the stubs' signatures, probed: a function called with an argument
left out must do what it does with the stub's default written out, whatever earlier calls passed.

The other probes pass every argument, so a default changed in the student's signature
(``set_to_none: bool = False`` where the stub says ``True``) is never seen by them; a caller
that leaves it out, as the statement's own uses do (``zero_grad(leaves)``,
``grad_history(w, x, 4)``), gets another behaviour.  ``default_kept`` makes both calls, each on
inputs of its own, and compares what a student sees of the two results (``seen``).  Each call is
the first of a fresh import of the student's file (``repeat.fresh_copy``): a result kept between
calls (a module-level list of rows) would make the second differ from the first whatever the
default, and the sentence would blame the signature.

A default read from state an earlier call left (``None`` in the signature, replaced by what the
last call passed, kept in a module-level dict) agrees with the stub's in a fresh import and in
every order the tests call in but one: after a call that passed another value.  ``Earlier`` names
such a call, made in a fresh import before the call with the argument left out, beside the same
call passing the stub's default; the call left out must do the same after either (a call with
``None`` in the signature, resolved inside the call, does).  Comparing with the earlier call that
passed the default, not with a first call, tells the value passed from any other state kept.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check
from grader.spec.repeat import fresh_copy

EARLIER = CONTEXT + "earlier_passed"
"""A DEFAULT_KEPT fact's context: the call left out did something else after ``Earlier.other``."""


class Earlier(NamedTuple):
    """A call made before the one with the argument left out: ``other(module)`` passes ``param``
    another value than the stub's default, ``default(module)`` the default; ``function`` names
    the function called (the one tested, or another of the exercise that passes it on)."""

    function: str
    param: str
    other: Callable[[ModuleType], Any]
    default: Callable[[ModuleType], Any]


def default_kept(sub: ModuleType, left_out: Callable[[ModuleType], Any], written: Callable[[ModuleType], Any],
                 seen: Callable[[Any], Any], label: str) -> dict[str, Any]:
    """The DEFAULT_KEPT fact, labelled ``label`` (the call with the argument left out, as code):
    ``left_out(module)`` and ``written(module)`` (the same call with the stub's default given),
    each on a fresh copy of ``sub`` (``sub`` itself where none can be made), look alike through
    ``seen``.  A call that raises is seen as the type of what it raised (a signature without the
    default raises TypeError where the other call returns)."""
    return check(Check.DEFAULT_KEPT, _outcome(sub, (), left_out, seen) == _outcome(sub, (), written, seen), label)


def default_after(sub: ModuleType, left_out: Callable[[ModuleType], Any], seen: Callable[[Any], Any], label: str,
                  earlier: Sequence[Earlier]) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of ``left_out`` (labelled ``label``) made after each of ``earlier``: after the call
    that passed another value it looks, through ``seen``, as it does after the same call passing the default, each
    in a fresh copy of ``sub``; the first that differs is named in the context (``earlier_passed``).  None where
    no copy can be made: the run's own state would be in ``sub``."""
    holds: bool | None = True
    for call in earlier:
        after_other, after_default = (_outcome(sub, (made,), left_out, seen) for made in (call.other, call.default))
        if after_other is None or after_default is None:
            holds = None
        elif after_other != after_default:
            return {**check(Check.DEFAULT_KEPT, False, label), EARLIER: True,
                    CONTEXT + "after": call.function, CONTEXT + "param": call.param}
    return check(Check.DEFAULT_KEPT, holds, label)


def _outcome(sub: ModuleType, before: Sequence[Callable[[ModuleType], Any]], call: Callable[[ModuleType], Any],
             seen: Callable[[Any], Any]) -> str | None:
    """What ``call`` did, seen, in a fresh copy of ``sub`` where ``before`` ran first (an error it raised is
    the student's, told by the tests that make that call: the call after it is made all the same).  Without a
    copy, ``sub`` itself, unless calls come before: None then, since the run's state would be in ``sub``."""
    module = fresh_copy(sub)
    if module is None and before:
        return None
    module = module or sub
    for made in before:
        with contextlib.suppress(Exception):  # its error is told by the tests of that call
            made(module)
    try:
        return repr(seen(call(module)))  # repr: exact, and nan equals itself
    except Exception as error:  # noqa: BLE001 - told as the other call's difference
        return f"raised {type(error).__name__}"
