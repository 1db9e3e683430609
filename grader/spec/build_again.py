"""A second backward through one graph of additions (ex17 on): PyTorch runs it again, every node anew.

Additions save nothing, so PyTorch runs such a graph a second time, and each node's backward returns
what it returned the first time (only a leaf's .grad, where the passes add up, differs).  A walk that
keeps the nodes it met between calls (a module-level set) counts none of them the second time, and
that backward fails or runs fewer nodes (``order_facts``); an engine that keeps the gradients it
buffers between calls (a module-level dict, a mutable default argument) starts a later pass from what
an earlier one left there, and its nodes' applies return other gradients (``SENT_AGAIN``).  From ex19 on,
where every test runs several backward calls through one leaf, that question alone is asked (``sent_again``),
and ex19's gate asks it where two backward calls leave a wrong sum (``sends_other_again``).
"""

from __future__ import annotations

from typing import Any

from grader.spec.build_order import order_facts
from grader.spec.build_watch import sent_by_applies
from grader.spec.build_reads import SECOND_RUN, root_as_was
from grader.spec.facts import Check
from grader.spec.held import held
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


def sent_again(sub: Any) -> dict[str, Any]:
    """``sent_again`` alone: whether a second backward through one unchanged graph of additions had the nodes'
    applies return what the first's did (``sends_other_again``), as a check told as state kept between calls."""
    return check(Check.SENT_AGAIN, not sends_other_again(sub), f"backward through {PROGRAM}")


def sends_other_again(sub: Any) -> bool:
    """Whether ``y.backward()`` a second time, y = (d + d) + w, d = w + x, had an apply return another gradient for
    an edge than the first did, where both passes ran that node as often and left every edge as it was.  A pass
    that raised, ran fewer nodes (a walk kept between calls) or changed the graph tells nothing here: other checks
    tell those."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    d = w + x
    s = d + d
    y = s + w
    held(y)
    names = {"w": w, "x": x, "d": d, "(d + d)": s, "y": y}
    edges = _edges(y)
    try:
        first = sent_by_applies(y, names, y.backward)
        later = sent_by_applies(y, names, y.backward)
    except Exception:  # noqa: BLE001 - the student's error, told by the other checks
        return False
    return _edges(y) == edges and any(len(later.get(label, ())) == len(sent) and later[label] != sent
                                      for label, sent in first.items())


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
