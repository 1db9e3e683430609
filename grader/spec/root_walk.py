"""Whether a walk written by hand (ex13's backprop) went on from root.grad_fn, the node its seed of one is at.

A walk that meets every other node of its order before root.grad_fn, or stops after it, runs the root alone; one whose
order leaves root.grad_fn out, or that never runs it, runs nothing; one that hands root.grad_fn's inputs the seed of
one themselves runs every node but the root, each of its inputs with one more than the calls sent it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.spec.arrivals import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close
from grader.spec.provenance import check


def past_the_root(calls: list[Call], root: Any, answer: object, label: str, orders: Sequence[Any]) -> dict[str, Any]:
    """The PAST_THE_ROOT fact of one backprop call: some node ran after root.grad_fn sent its
    gradients on, or a leaf got an entry.  It fails where local_grads ran on root.grad_fn alone
    and sent a gradient to a node that an order backprop's topological_order call returned
    (``orders``) holds, and the answer holds nothing: the walk met every other node of its order
    before any gradient reached it (the order walked from its end), or stopped at the root.  An
    order that leaves those nodes out is told by the order's own facts.  It fails too where
    local_grads never ran and the answer holds nothing: every order the call got leaves out root.grad_fn itself
    (``~root_left_out``: a walk along it never meets the node seeded with one), or the walk never ran it (``~root_unrun``);
    and where the walk ran every node but root.grad_fn, its inputs seeded with one (``~root_skipped``, ``_inputs_seeded``)."""
    node = getattr(root, "grad_fn", None)
    empty = not (isinstance(answer, dict) and bool(dict.keys(answer)))
    if not calls and node is not None and orders:  # no node ran: an order without root.grad_fn, or root.grad_fn unrun
        left = not any(n is node for order in orders for n in order)
        return {**check(Check.PAST_THE_ROOT, not empty, label), CONTEXT + "root_left_out": empty and left, CONTEXT + "root_unrun": empty and not left}
    out = calls[0][2] if len(calls) == 1 and calls[0][0] is node else ()
    sent = [child for (child, _), g in zip(node.next_functions if node is not None else (),
                                           out if isinstance(out, (tuple, list)) else ())
            if child is not None and g is not None]
    ordered = any(child is n for order in orders for n in order for child in sent)
    if _inputs_seeded(calls, node):
        return {**check(Check.PAST_THE_ROOT, False, label), CONTEXT + "root_skipped": True}
    return check(Check.PAST_THE_ROOT, not ordered or not empty, label)


def _inputs_seeded(calls: list[Call], node: Any) -> bool:
    """Whether local_grads never ran on root.grad_fn (``node``), some node it feeds ran, and every such node went on
    with one more than the calls sent it: the walk gave root.grad_fn's inputs the gradient one each, passing over the
    root's own node (its local derivatives never applied)."""
    if node is None or any(n is node for n, _, _ in calls):
        return False
    fed = {id(child) for child, _ in node.next_functions if child is not None}
    went: dict[int, float] = {}
    sent: dict[int, float] = {}
    try:
        for n, grad, out in calls:
            went[id(n)] = went.get(id(n), 0.0) + float(grad)
            for (child, _), g in zip(n.next_functions, out if isinstance(out, (tuple, list)) else ()):
                if child is not None and g is not None:
                    sent[id(child)] = sent.get(id(child), 0.0) + float(g)
    except (TypeError, ValueError):  # a gradient that is no number: other facts tell it
        return False
    ran = [k for k in went if k in fed]
    return bool(ran) and all(close(went[k], 1.0 + sent.get(k, 0.0)) for k in ran)
