"""A second backward through one graph of additions (ex17): PyTorch runs it again, every node anew.

Additions save nothing, so PyTorch runs such a graph a second time, and each node's backward returns
what it returned the first time (only a leaf's .grad, where the passes add up, differs).  A walk that
keeps the nodes it met between calls (a module-level set) counts none of them the second time, and
that backward fails or runs fewer nodes (``order_facts``); an engine that keeps the gradients it
buffers between calls (a module-level dict, a mutable default argument) starts a later pass from what
an earlier one left there, and its nodes' applies return other gradients (``SENT_AGAIN``).
"""

from __future__ import annotations

from typing import Any

from grader.spec.build_order import order_facts, sent_by_applies
from grader.spec.build_reads import SECOND_RUN, root_as_was
from grader.spec.facts import Check
from grader.spec.provenance import check
from grader.spec.raised import raised

PROGRAM = "y = (d + d) + w, d = w + x"


def again(sub: Any) -> dict[str, Any]:
    """``y.backward()`` three times on one graph: ``again``, whether the first raised and the order facts of the
    second (``order_facts``: a node run twice meets its gradient gone, or before a node that sends it one);
    ``root_as_was``, what the first left of y (a y the first backward changed fails the second for that reason);
    ``sent_again``, whether the third's applies returned what the first's did, judged where the second raised
    nothing and the passes left every node's edges as they were."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    d = w + x
    s = d + d
    y = s + w
    names = {"w": w, "x": x, "d": d, "(d + d)": s, "y": y}
    first: list[Any] = []
    edges = _edges(y)
    sent = sent_by_applies(y, names, lambda: first.append(raised(y.backward, f"y.backward(), {PROGRAM}")))
    left = root_as_was(y, PROGRAM)
    seen = order_facts(y, names, f"{PROGRAM} ({SECOND_RUN})", catch=True)
    later = sent_by_applies(y, names, lambda: raised(y.backward, f"y.backward(), {PROGRAM}"))
    stopped = any(f is not None and f.get("value") is not None for f in [*first, *seen["first"]])
    holds = stopped or _edges(y) != edges or later == sent
    return {"again": [*first, *seen["first"], *seen["ran"][:2], *seen["applied"]], "root_as_was": left,
            "sent_again": check(Check.SENT_AGAIN, holds, f"backward through {PROGRAM}")}


def _edges(y: Any) -> list[tuple[int, tuple[int, ...]]]:
    """Each node reachable from y's node, by identity, with the nodes its edges lead to, in the order a walk meets
    them: what a backward may not change for a later one to run the same graph again."""
    out, stack, seen = [], [getattr(y, "grad_fn", None)], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        children = [pair[0] for pair in list(getattr(node, "next_functions", ())) if type(pair) in (tuple, list) and pair]
        out.append((id(node), tuple(id(c) for c in children)))
        stack.extend(children)
    return out
