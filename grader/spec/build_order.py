"""The order in which a build-track engine runs its nodes, observed while backward runs
(``grader.spec.build_watch``), as facts that hold no number:

* ``runs_once``: no node ran twice (a recursive walk runs a shared node once per path);
* ``after_feeders``: no node ran before a node that sends it a gradient; the student's side
  names the first such pair (context, told with the difference);
* the whole order, compared with PyTorch's (the newest ready node first).  Ready
  ``AccumulateGrad`` nodes all have the highest sequence number, so the statement leaves their
  order among themselves open (a ready list sorted then popped from its end runs them last
  pushed first, a heap first pushed first): a run of them is compared as a set, in name order;
* ``applied``: the engine called the ``apply`` of every other node (PyTorch runs each).  An
  engine that runs a node some other way (a table of its own from node class to function) runs
  it unseen: its order cannot be watched, so the three facts above are not claimed (None), and
  this one says which node's ``apply`` backward never called, instead of a shorter order.
"""

from __future__ import annotations

from typing import Any, Callable

from grader.spec.build_reads import fact
from grader.spec.build_watch import UNNAMED, Watch, node_label, passed_on, reachable, watched
from grader.spec.raised import raised
from grader.spec.facts import CONTEXT, Check
from grader.spec.order_lists import ACCUMULATE, passed_over, ties_in_name_order, too_early
from grader.spec.provenance import check

def run_order(root: Any, names: dict[str, Any], start: Callable[[], None]
              ) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """The labels of the nodes ``start()`` (a backward from ``root``, a Value) ran, in order;
    each node's label with the labels of the nodes that send it a gradient; and the labels of
    the nodes other than AccumulateGrad that ran unseen (their ``apply`` never called)."""
    order, feeders, unseen, _ = _ran(root, names, start)
    return order, feeders, unseen


def _ran(root: Any, names: dict[str, Any], start: Callable[[], None], polled: tuple[str, ...] = ()
         ) -> tuple[list[str], dict[str, list[str]], list[str], Watch]:
    """``run_order``'s three answers, and the watch they were read from (the values ``polled`` read beside)."""
    watch, feeders = watched(root, names, start, {name: names[name] for name in polled})
    order = watch.order()
    unseen = [label for label in feeders if label not in order and (not label.startswith(ACCUMULATE) or (
        label in watch.raised and watch.read[label][0] is None))]  # a leaf's node a raising feeder never reached
    return order, feeders, unseen, watch


def _stuck(order: list[str], feeders: dict[str, list[str]], watch: Watch) -> tuple[str, str] | None:
    """The first named node backward never ran although every node that sends it a gradient ran,
    one of them through two edges (``h + h``'s node into h's), and that feeder: a dependency count
    taken down once for both edges never reaches 0.  An AccumulateGrad counts as never run only
    when its leaf's .grad is still None (one written in place unseen may have run)."""
    for node, into in feeders.items():
        if node == UNNAMED or node in order or not into or UNNAMED in into or not all(f in order for f in into):
            continue
        if node.startswith(ACCUMULATE) and watch.read[node][0] is not None:
            continue
        twice = next((f for f in into if into.count(f) > 1), None)
        if twice is not None:
            return node, twice
    return None


def _why_unseen(node: str, stuck: tuple[str, str] | None, feeders: dict[str, list[str]], watch: Watch
                ) -> dict[str, Any]:
    """The context told beside a node backward never called the apply of: a feeder whose apply
    raised an error backward went on past; one whose apply returned no tuple (a generator); a feeder whose apply returned no gradient for its edge into it (so fewer came than edges reach it); else every edge's
    gradient 0 (left out for a 0); else a feeder through two edges whose count went down once."""
    context: dict[str, Any] = {CONTEXT + "node": node}
    swallowed = watch.raised.get(node)
    if swallowed is not None and swallowed[0] != UNNAMED:  # a feeder's apply raised, and backward went on
        return {**context, CONTEXT + "swallowed": True, CONTEXT + "feeder": swallowed[0], CONTEXT + "error": swallowed[1]}
    odd = watch.odd.get(node)
    if odd is not None and odd[0] != UNNAMED:  # a feeder's apply gave no tuple: told as that, not as a count
        return {**context, CONTEXT + "not_tuple": True, CONTEXT + "feeder": odd[0], CONTEXT + "type": odd[1]}
    short = watch.short.get(node)
    if short is not None and short != UNNAMED:
        return {**context, CONTEXT + "short": True, CONTEXT + "feeder": short}
    if watch.sent_zeros(node, len(feeders.get(node, []))):
        return {**context, CONTEXT + "zero_sent": True}
    if stuck is not None:
        return {**context, CONTEXT + "two_edges": True, CONTEXT + "feeder": stuck[1]}
    return context


def _run_again(order: list[str], paths: dict[str, int]) -> str | None:
    """The first named node that ran twice in a row, and not as many times as paths reach it:
    backward called its apply again at once, where a walk once per path runs a node once for
    each path (twice in a row too, for ``w * w``'s two edges into w's node)."""
    return next((node for node, then in zip(order, order[1:])
                 if node == then and node in paths and order.count(node) != paths[node]), None)


def _paths(root: Any, names: dict[str, Any]) -> dict[str, int]:
    """How many paths from ``root`` (a node) reach each named node: the sum, over the edges into
    it, of the paths reaching the node the edge comes from (Kahn's order: no recursion)."""
    nodes = reachable(root)
    into: dict[int, int] = {id(n): 0 for n in nodes}
    below: dict[int, list[Any]] = {id(n): [] for n in nodes}
    for n in nodes:
        for pair in list(getattr(n, "next_functions", ())):
            if type(pair) in (tuple, list) and len(pair) == 2 and pair[0] is not None:
                into[id(pair[0])] += 1
                below[id(n)].append(pair[0])
    count = {id(n): 0 for n in nodes}
    ready = [n for n in nodes if into[id(n)] == 0]
    for n in ready:
        count[id(n)] = 1
    while ready:
        n = ready.pop()
        for child in below[id(n)]:
            count[id(child)] += count[id(n)]
            into[id(child)] -= 1
            if into[id(child)] == 0:
                ready.append(child)
    labels = {id(n): node_label(n, names) for n in nodes}
    return {labels[key]: paths for key, paths in count.items() if labels[key] != UNNAMED}


def order_facts(root: Any, names: dict[str, Any], program: str, catch: bool = False, retained: tuple[str, ...] = ()
                ) -> dict[str, list[Any]]:
    """Run ``root.backward()`` watched; the facts about the order its nodes ran in (``ran``,
    None each when a node ran unseen) and whether backward called every node's apply
    (``applied``).  With ``catch``, an error of that backward is a fact too (``first``: a
    node run twice that meets the values it released), and the order is told as far as it went.
    With ``retained`` (names of retained non-leaves), ``passed_on`` lists those whose .grad holds
    what their node's apply returned, not what it was handed (``build_watch.passed_on``)."""
    label = f"backward through {program}"
    first: list[dict[str, Any] | None] = []
    called = f"{next((n for n, v in names.items() if v is root), 'root')}.backward(), {program}"
    start = (lambda: first.append(raised(root.backward, called))) if catch else root.backward
    order, feeders, unseen, watch = _ran(root, names, start, retained)
    stopped = bool(first) and first[0] is not None and first[0].get("value") is not None
    applied = check(Check.APPLIED, stopped or not unseen, label)  # stopped: no node known to run unseen
    out: dict[str, list[Any]] = {"first": first} if catch else {}
    if retained:
        out["passed_on"] = [name for name in retained if passed_on(watch, name)]
    stuck = _stuck(order, feeders, watch) if not stopped else None
    if stuck is not None and stuck[0] not in unseen:  # a leaf's AccumulateGrad: its .grad never written
        unseen.insert(0, stuck[0])
        applied = check(Check.APPLIED, False, label)
    if unseen and not stopped:  # context: told beside the difference, never compared
        node = stuck[0] if stuck is not None else unseen[0]
        applied.update(_why_unseen(node, stuck, feeders, watch))
        return {**out, "ran": [None, None, None], "applied": [applied]}
    early = too_early(order, feeders)
    after = check(Check.AFTER_FEEDERS, early is None, label)
    if early is not None:
        after.update({CONTEXT + "ran": early[0], CONTEXT + "feeder": early[1]})
    once = check(Check.RUNS_ONCE, len(order) == len(set(order)), label)
    again = _run_again(order, _paths(getattr(root, "grad_fn", None), names)) if len(order) != len(set(order)) else None
    if again is not None:  # context: a node run twice in a row, not once per path to it
        once.update({CONTEXT + "node": again, CONTEXT + "in_a_row": True})
    return {**out, "ran": [once, after, {**fact(ties_in_name_order(order), f"the list of the nodes of {program}, in the order backward ran them"), **passed_over(order, feeders, names)}],
            "applied": [applied]}


def watched_order(graphs: list[tuple[Any, dict[str, Any], str]], catch: bool = False, retained: tuple[str, ...] = ()
                  ) -> dict[str, list[Any]]:
    """``order_facts`` of each (root, names, program), in order, as one list per key."""
    out: dict[str, list[Any]] = {}
    for root, names, program in graphs:
        for key, facts in order_facts(root, names, program, catch, retained).items():
            out[key] = out.get(key, []) + facts
    return out
