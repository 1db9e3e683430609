"""Nodes no gradient reached, run all the same (ex13's backprop).

A node every gradient sent toward which was None (behind a custom Function that passes none
back) is skipped by the statement's walk.  A walk that gives such a node a gradient of its own
(``arrived.pop(node, 1.0)``, the root's seed for a default) calls local_grads on it; on a graph
where the node's sibling of the same name was sent one, its calls are those of a walk keeping
gradients under node names too (``grader.spec.by_name``), so that is not told where this fits.
"""

from __future__ import annotations

from typing import Any

import micrograph

from grader.spec.arrivals import Call
from grader.spec.facts import Check
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


def skipped_unreached(calls: list[Call], label: str) -> dict[str, Any]:
    """The UNREACHED_SKIPPED fact of one backprop call: local_grads never ran on a node no
    gradient was sent to."""
    return check(Check.UNREACHED_SKIPPED, not unreached_runs(calls), label)


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
