"""What a function called again on the same inputs handed out again: an object an earlier call
made and returned, where the statement's code makes a new one at each call (``grader.spec.repeat``'s
SAME_AGAIN fact).  A result cached by its inputs returns the very list, dict or exception; an error
kept per inputs comes back inside a new dict, beside a new leaf, and only its identity tells it; so do the
Values of a result kept per inputs and handed out as a copy (a new dict, the very Values)."""

from __future__ import annotations

from collections.abc import Callable

from micrograph import Value

MAX_DEPTH = 3
"""How deep exceptions are looked for in a result's lists, tuples and dicts."""


def made_anew(p: object) -> bool:
    """Whether ``p`` is what a call makes anew each time it runs, so that one returned again was kept between
    calls: a list, a dict or an exception.  None, True, a small int, an interned str, the empty tuple or a
    constant handed in are one object in calls that kept nothing (CPython shares them)."""
    return type(p) in (list, dict) or isinstance(p, BaseException)


def carries_state(p: object) -> bool:
    """Whether ``p``, met again in a later call, was kept between calls: a Value, or what a call makes
    anew (``made_anew``).  None, True or a small int met again are one object in calls that kept nothing."""
    return isinstance(p, Value) or made_anew(p)


def _made(result: object) -> list[object]:
    """What a call makes anew (``made_anew``) among what it returned, or the items of a returned
    tuple (Values may be the inputs' own, or nodes of a graph given)."""
    parts = list(result) if type(result) is tuple else [result]
    return [p for p in parts if made_anew(p)]


def _errors_in(result: object, depth: int = 0) -> list[object]:
    """Every exception in a call's result, in its lists, tuples and dicts too: the statement's
    code raises each anew, where one kept per inputs comes back in a new dict."""
    if isinstance(result, BaseException):
        return [result]
    items = result.values() if type(result) is dict else result if type(result) in (list, tuple) else ()
    return [e for item in items for e in _errors_in(item, depth + 1)] if depth <= MAX_DEPTH else []


def handed_again(first: object, again: object, inputs: object) -> str | None:
    """What ``again``, returned for the first inputs once more, holds that the first call returned
    (not one of the inputs): ``"whole"``, a list, dict or exception it returned (a result cached by
    its inputs, ``functools.lru_cache``, handed out again without running), or ``"error"``, an
    exception inside a new result (an error kept per inputs), or ``"values"``, a new dict of the Values the
    first returned (a result kept per inputs, copied: every statement's function so probed makes its Values anew); None: nothing."""
    given = list(inputs) if type(inputs) in (tuple, list) else [inputs]

    def kept(made: Callable[[object], list[object]]) -> bool:
        earlier = [p for p in made(first) if not any(p is g for g in given)]
        return any(p is old for p in made(again) for old in earlier)
    return "whole" if kept(_made) else "error" if kept(_errors_in) else "values" if _copied(first, again, given) else None


def _copied(first: object, again: object, given: list[object]) -> bool:
    """Whether ``again`` is a dict whose values are all Values ``first``, a dict too, returned, none of them
    ``given``: a copy of a result kept per inputs (one Value kept, the others new, is told by what differs)."""
    if type(first) is not dict or type(again) is not dict or not again:
        return False
    earlier = list(first.values())
    return all(isinstance(v, Value) and any(v is old for old in earlier) and not any(v is g for g in given)
               for v in again.values())
