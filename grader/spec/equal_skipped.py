"""Leaves a zero_grad skipped for being equal (==) to an earlier one.  A zero_grad that drops
"duplicates" first (``if leaf not in seen: seen.append(leaf)``) keeps one leaf of each number: a
list's ``in`` compares with ``==`` where ``is`` fails, and a Value that equals another is true.
Given distinct leaves of one value, it clears the first and leaves the others as backward wrote.

``skipped_as_equal`` tells it from a zero_grad that leaves some leaf alone whatever the numbers
(the last one, by an off-by-one) by one more call, on leaves whose numbers all differ;
``equal_skipped_in_loop`` tells it where a loop gave zero_grad two leaves of one number.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from micrograph import Value

from grader.spec.facts import CONTEXT
from grader.spec.mode_restored import called

NAMES = "pqr"
"""The leaves' names in the labels of the probe's facts, in the order given."""


def _kept(v: Value) -> bool:
    """Whether ``v.grad`` still holds a number other than zero (not cleared, not zeroed)."""
    return isinstance(v.grad, Value) and v.grad.item() != 0.0


def skipped_as_equal(sub: ModuleType, leaves: list[Value], held: list[bool], others: Callable[[], list[Value]],
                     set_to_none: bool) -> dict[str, dict[str, Any]]:
    """By name, the context of each leaf zero_grad left holding its gradient: the other leaf of the
    list that holds the same number, held a gradient (``held``) and was cleared (``~skipped_as``,
    an earlier one first: `in` keeps the first of equal leaves; else a later one,
    ``~skipped_later``: a dict keyed by the number keeps the last), where zero_grad given
    ``others()`` (new leaves whose numbers all differ) with the same flag clears every one of them
    that holds a gradient.  Empty where there is none, or that call raised."""
    order = [[*range(i), *range(i + 1, len(leaves))] for i in range(len(leaves))]  # earlier ones first
    skipped = {i: next((j for j in order[i] if held[j] and not _kept(leaves[j])
                        and leaves[j].item() == leaves[i].item()), None) for i, v in enumerate(leaves) if _kept(v)}
    skipped = {i: j for i, j in skipped.items() if j is not None}
    if not skipped:
        return {}
    distinct = others()
    try:
        called("zero_grad", sub.zero_grad, list(distinct), set_to_none=set_to_none)
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the test's own calls
        return {}
    if any(_kept(v) for v in distinct):
        return {}
    return {NAMES[i]: {CONTEXT + "skipped_as": NAMES[j], **({CONTEXT + "skipped_later": True} if j > i else {})}
            for i, j in skipped.items()}


def _cleared_by(sub: ModuleType, numbers: tuple[float, ...], rest: list[Any]) -> list[bool] | None:
    """Whether zero_grad, given new leaves holding ``numbers`` (each with a gradient) and the
    other arguments ``rest``, cleared each of them; None where that call raised."""
    leaves = [Value(n, requires_grad=True) for n in numbers]
    sum((leaf * (i + 2) for i, leaf in enumerate(leaves)), Value(0.0)).backward()
    try:
        called("zero_grad", sub.zero_grad, list(leaves), *rest)
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the test's own calls
        return None
    return [not _kept(leaf) for leaf in leaves]


def equal_skipped_in_loop(sub: ModuleType, cleared: Value, never: Value, given: list[list[Any]]) -> str | None:
    """How a loop's zero_grad, given both of its leaves (``given``: each call's arguments), left
    ``never`` alone as a leaf equal to ``cleared``: the two hold one number, and zero_grad, called
    with the same other arguments, clears every new leaf of a list whose numbers differ and leaves
    one of two new leaves of one number as backward wrote it: "first" where it keeps the first of
    them (found by `in`), "last" where it keeps the last (a dict keyed by the number); None
    otherwise.  A record of leaves kept between calls by id skips by id, not for a number met before."""
    both = next((args for args in given if args and type(args[0]) is list
                 and any(v is cleared for v in args[0]) and any(v is never for v in args[0])), None)
    if both is None or cleared.item() != never.item():
        return None
    distinct, equal = _cleared_by(sub, (-0.5, 3.0, 1.0), both[1:]), _cleared_by(sub, (2.5, 2.5), both[1:])
    return {(True, False): "first", (False, True): "last"}.get(tuple(equal or ())) if distinct == [True] * 3 else None
