"""Leaves a zero_grad skipped for being equal (==) to an earlier one.  A zero_grad that drops
"duplicates" first (``if leaf not in seen: seen.append(leaf)``) keeps one leaf of each number: a
list's ``in`` compares with ``==`` where ``is`` fails, and a Value that equals another is true.
Given distinct leaves of one value, it clears the first and leaves the others as backward wrote.

``skipped_as_equal`` tells it from a zero_grad that leaves some leaf alone whatever the numbers
(the last one, by an off-by-one) by one more call, on leaves whose numbers all differ.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from micrograph import Value

NAMES = "pqr"
"""The leaves' names in the labels of the probe's facts, in the order given."""


def _kept(v: Value) -> bool:
    """Whether ``v.grad`` still holds a number other than zero (not cleared, not zeroed)."""
    return isinstance(v.grad, Value) and v.grad.item() != 0.0


def skipped_as_equal(sub: ModuleType, leaves: list[Value], held: list[bool], others: Callable[[], list[Value]],
                     set_to_none: bool) -> dict[str, str]:
    """By name, each leaf zero_grad left holding its gradient, beside the earlier leaf of the list
    that holds the same number, held a gradient (``held``) and was cleared: where zero_grad given
    ``others()`` (new leaves whose numbers all differ) with the same flag clears every one of them
    that holds a gradient.  Empty where there is none, or that call raised."""
    skipped = {i: next((j for j in range(i) if held[j] and not _kept(leaves[j])
                        and leaves[j].item() == leaves[i].item()), None) for i, v in enumerate(leaves) if _kept(v)}
    skipped = {i: j for i, j in skipped.items() if j is not None}
    if not skipped:
        return {}
    distinct = others()
    try:
        sub.zero_grad(list(distinct), set_to_none=set_to_none)
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the test's own calls
        return {}
    return {} if any(_kept(v) for v in distinct) else {NAMES[i]: NAMES[j] for i, j in skipped.items()}
