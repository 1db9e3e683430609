"""A doubling loop's count against its graph and its limit (ex10's ``double_until``): where the
loop's start sits against its limit (the case a feedback names), how many doublings the
statement's loop runs from there, and whether a count returned is the number of doublings the
graph of the y returned records (one MulBackward0 each).
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def reach(start: float, limit: float) -> str:
    """Where the loop's start sits against its limit, for the label of its y: the boundary
    the statement names is a doubling that lands on the limit exactly (the loop stops there)."""
    if start >= limit:
        return N_("w at the limit") if start == limit else N_("w above the limit")
    y = start
    while y < limit:
        y *= 2
    return N_("a doubling lands on the limit") if y == limit else N_("w below the limit")


def doublings(start: float, limit: float, past_limit: bool = False) -> int:
    """How many doublings a loop from ``start`` runs: while y < limit (the statement's), or
    ``past_limit``, while y <= limit (one that goes on at y equal to the limit)."""
    y, count = start, 0
    while y < limit or (past_limit and y == limit):
        y, count = y * 2, count + 1
    return count


def counts_recorded(built: dict, steps: object, statements: int) -> bool | None:
    """Whether a count double_until returned that is not the statement's is at least the number
    of doublings its y's graph records (one MulBackward0 each): False where the count is off
    from the loop that ran; None where that graph is no chain of doublings (its own difference
    is told) or the count no int."""
    ops = [node.get("op") for node in built["nodes"] if node.get("op") != "AccumulateGrad"]
    if type(steps) is not int or not ops or set(ops) != {"MulBackward0"}:
        return None
    return steps in (len(ops), statements)


def count_fact(built: dict, returned_leaf: bool, steps: object, start: float, limit: float, label: str) -> dict[str, Any]:
    """The COUNTS_RECORDED fact of a count double_until returned beside its y (``built``, its graph):
    where y is the leaf w itself (``returned_leaf``) and the statement's loop runs no doubling from
    ``start``, y went through none, and the count is judged against that; where a doubling runs,
    that leaf returned is told by its own fact.  A count below zero is told with the case it was
    met in (``~below_zero``, ``~case``): a loop runs no number of times below zero (a count
    computed by a formula, ``ceil(log2(limit / w))``, is where w is above the limit)."""
    statements = doublings(start, limit)
    if returned_leaf:
        holds = None if statements or type(steps) is not int else steps == 0
    else:
        holds = counts_recorded(built, steps, statements)
    fact = check(Check.COUNTS_RECORDED, holds, label)
    if holds is False and type(steps) is int and steps < 0:
        return {**fact, CONTEXT + "below_zero": True, CONTEXT + "case": reach(start, limit)}
    return fact
