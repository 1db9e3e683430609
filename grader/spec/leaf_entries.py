"""Leaves of one number in a hand-written backward pass's answer (ex13's backprop): an answer that
gave two leaves of one number a single entry, or the sum of both leaves' gradients to each.  The
gradient there is both leaves', which no sum at a node explains (``grader.spec.arrivals`` tells
the sums); the calls of local_grads ``arrivals.recorded`` kept say what was sent to each leaf.
"""

from __future__ import annotations

import math
from typing import Any

import micrograph

from grader.spec.arrivals import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close
from grader.spec.provenance import check


def leaves_apart(items: list[tuple[Any, Any]], leaves: list[Any], names: tuple[str, ...], label: str,
                 calls: list[Call]) -> dict[str, Any]:
    """The LEAVES_APART fact of backprop's answer (``items``, its dict's pairs): no leaf is left
    out while another leaf of its number holds the gradients the walk sent to both leaves' nodes
    (a leaf found with ``==`` or by its number merges the two); context names both (``~missing``,
    ``~kept``).  A leaf left out whose twin holds its own gradient alone, or to whose node no
    gradient other than 0 was sent, was not merged: the walk never reached its node, or dropped
    what it sent there (other facts tell that)."""
    keyed = [next((g for k, g in items if k is leaf), None) for leaf in leaves]
    numbers = [leaf.item() for leaf in leaves]
    sent = _sent_to_leaves(calls)
    merged = next(((names[i], names[j]) for i in range(len(leaves)) for j in range(len(leaves))
                   if keyed[i] is None and keyed[j] is not None and numbers[i] == numbers[j]
                   and any(g != 0 for g in sent.get(leaves[i], []))  # its own gradient, held by the other
                   and _holds_both(keyed[j], sent.get(leaves[i], []) + sent.get(leaves[j], []))), None)
    shared = None if merged is not None else _shared(keyed, numbers, sent, leaves, names)
    fact = check(Check.LEAVES_APART, merged is None and shared is None, label)
    if shared is not None:
        return {**fact, CONTEXT + "missing": shared[0], CONTEXT + "kept": shared[1], CONTEXT + "shared": True}
    return fact if merged is None else {**fact, CONTEXT + "missing": merged[0], CONTEXT + "kept": merged[1]}


def _shared(keyed: list[Any], numbers: list[float], sent: dict[Any, list[float]], leaves: list[Any],
            names: tuple[str, ...]) -> tuple[str, str] | None:
    """Two leaves of one number, each answered with the sum of the gradients sent to both
    leaves' nodes, each sent one other than 0 (so that sum is neither leaf's own): a dict keyed
    by the leaf's number (``leaf.item()``) adds both up under one key and gives it to each."""
    return next(((names[i], names[j]) for i in range(len(leaves)) for j in range(i + 1, len(leaves))
                 if numbers[i] == numbers[j] and keyed[i] is not None and keyed[j] is not None
                 and any(g != 0 for g in sent.get(leaves[i], [])) and any(g != 0 for g in sent.get(leaves[j], []))
                 and all(_holds_both(keyed[k], sent[leaves[i]] + sent[leaves[j]]) for k in (i, j))), None)


def _sent_to_leaves(calls: list[Call]) -> dict[Any, list[float]]:
    """The gradients local_grads calls sent to each leaf's AccumulateGrad node, by leaf."""
    sent: dict[Any, list[float]] = {}
    for node, _, out in calls:
        for (child, _), g in zip(node.next_functions, out if isinstance(out, (tuple, list)) else ()):
            if isinstance(child, micrograph.AccumulateGrad) and type(g) in (int, float):
                sent.setdefault(child.variable, []).append(float(g))
    return sent


def _holds_both(answer: object, both: list[float]) -> bool:
    """Whether a leaf's answer is the sum of what was sent to two leaves' nodes (or nothing was
    seen to be sent: a walk without local_grads calls, which no count contradicts)."""
    return not both or (type(answer) in (int, float) and close(float(answer), math.fsum(both)))
