"""Nodes no gradient reached, run all the same (ex13's backprop).

A node every gradient sent toward which was None (behind a custom Function that passes none
back) is skipped by the statement's walk.  A walk that gives such a node a gradient of its own
(``arrived.pop(node, 1.0)``, the root's seed for a default) calls local_grads on it; on a graph
where the node's sibling of the same name was sent one, its calls are those of a walk keeping
gradients under node names too (``grader.spec.by_name``), so that is not told where this fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import micrograph

from grader.spec.arrivals import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close
from grader.spec.provenance import check


def _sent(calls: list[Call]) -> dict[Any, list[float]]:
    """The gradients local_grads's calls sent each node (None left out), by node identity."""
    sent: dict[Any, list[float]] = {}
    for node, _, out in calls:
        for (child, _), grad in zip(getattr(node, "next_functions", ()), out or ()):
            if child is not None and grad is not None:
                sent.setdefault(child, []).append(float(grad))
    return sent


def unreached_runs(calls: list[Call]) -> list[Call]:
    """The calls of local_grads on a node none of the calls sent a gradient to, the first call's
    node (root.grad_fn, seeded) left out.  None where a gradient is no number: other facts tell it."""
    try:
        sent = _sent(calls)
    except (TypeError, ValueError):
        return []
    return [] if not calls else [call for call in calls[1:] if call[0] not in sent and call[0] is not calls[0][0]]


def skipped_unreached(calls: list[Call], label: str, answer: object = None, orders: Sequence[Any] = ()) -> dict[str, Any]:
    """The UNREACHED_SKIPPED fact of one backprop call: local_grads never ran on a node no
    gradient was sent to, and the walk went on past one (``~stopped``: it stopped there,
    ``stopped_at_unreached``)."""
    stopped = stopped_at_unreached(calls, answer, orders)
    return {**check(Check.UNREACHED_SKIPPED, not unreached_runs(calls) and not stopped, label), CONTEXT + "stopped": stopped}


def stopped_at_unreached(calls: list[Call], answer: object, orders: Sequence[Any]) -> bool:
    """Whether the walk went no further than the first node of its one order that no gradient was sent to
    (a ``break`` for the statement's ``continue``): every node before it that was sent a gradient ran (or,
    a leaf's, has an answer), none after it did, though one after it was sent a gradient other than 0.  A
    walk pairing gradients with next_functions in reverse does the same on a graph whose every gradient
    past that node went to an entry the reverse gives a constant: the tests of other graphs tell it."""
    if len(orders) != 1 or not calls or not isinstance(answer, dict):
        return False
    try:  # an order of what is no node (unhashable, or a gradient no number): other facts tell it
        sent = {id(node): grads for node, grads in _sent(calls).items()}
    except (TypeError, ValueError):
        return False
    order, root = list(orders[0]), calls[0][0]
    stop = next((k for k, node in enumerate(order) if node is not root and id(node) not in sent), None)
    if stop is None:
        return False
    ran = {id(node) for node, _, _ in calls} | {id(node) for node in order if isinstance(node, micrograph.AccumulateGrad)
                                                 and any(key is node.variable for key in dict.keys(answer))}
    before, after = order[:stop], order[stop + 1:]  # the order keeps its nodes alive: ids stand for them
    return (all(id(node) in ran for node in before if id(node) in sent) and not any(id(node) in ran for node in after)
            and any(g != 0 for node in after for g in sent.get(id(node), [])))


def one_for_unreached(calls: list[Call], answer: object) -> bool:
    """Whether the calls and the answer are the statement's walk, by node, but for nodes no
    gradient reached, run with the gradient one: each call passed what reached its node (one
    where nothing did), and each leaf a gradient reached has that sum for its answer."""
    if not unreached_runs(calls) or not isinstance(answer, dict):
        return False
    try:
        sent = _sent(calls)
        if not close(float(calls[0][1]), 1.0) or not all(close(float(grad), sum(sent[node]) if node in sent else 1.0) for node, grad, _ in calls[1:]):
            return False
        items = list(dict.items(answer))
        return all(close(float(g), sum(sent[node])) for node in sent if isinstance(node, micrograph.AccumulateGrad)
                   for k, g in items if k is node.variable)
    except (TypeError, ValueError):
        return False
