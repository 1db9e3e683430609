"""Whether a list (or tuple) is a topological order of a graph, judged property by property (one
CHECK fact each: a list of nodes, root.grad_fn first, each node once, every reachable node, parents
before children), so that the feedback says which property an order breaks (ex13's
``topological_order``)."""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def _reachable(root: Value) -> set[micrograph.Node]:
    """Every node reachable from root.grad_fn (the probe's own walk, no recursion)."""
    seen = {root.grad_fn}
    stack = [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def _by_identity(objects: list[Any]) -> bool:
    """Whether every object's class hashes and compares by identity, as the engine's nodes do: then
    the objects themselves key a dict (``id()`` would raise an audit event per call in the sandbox)."""
    return all(t.__hash__ is object.__hash__ and t.__eq__ is object.__eq__ for t in {type(o) for o in objects})


def _fed_by(left_out: set[micrograph.Node], placed: Any, reachable: set[micrograph.Node]) -> str | None:
    """The name of a node that feeds a left-out node, is placed, and is reached by more than one
    edge, where every node feeding that left-out node is placed: what a counting walk that
    expands a node once per edge reaching it (marked seen when popped, not when pushed) counts
    twice below it.  None where no left-out node is fed by placed nodes only."""
    feeders: dict[micrograph.Node, list[micrograph.Node]] = {}
    for node in reachable:
        for child, _ in node.next_functions:
            if child is not None:
                feeders.setdefault(child, []).append(node)
    for node in left_out:
        fed = feeders.get(node, [])
        if fed and all(f in placed for f in fed):
            shared = next((f for f in fed if len(feeders.get(f, [])) > 1), None)
            if shared is not None:
                return str(shared.name())
    return None


def _feeding(reachable: set[micrograph.Node]) -> dict[micrograph.Node, dict[micrograph.Node, int]]:
    """For each node of the graph, the nodes feeding it and through how many entries of their
    next_functions each does (two for ``b = a + a``)."""
    edges: dict[micrograph.Node, dict[micrograph.Node, int]] = {}
    for node in reachable:
        for child, _ in node.next_functions:
            if child is not None:
                fed = edges.setdefault(child, {})
                fed[node] = fed.get(node, 0) + 1
    return edges


def _taken_per_node(placed: set[Any], reachable: set[micrograph.Node], first: micrograph.Node
                    ) -> tuple[str, str] | None:
    """A node left out and a placed node feeding it through two entries of its next_functions
    (``b = a + a``), where the nodes placed are exactly those a Kahn walk places that counts each
    edge but takes away one per feeding node (its children as a set): a node fed twice by one
    node never comes down to zero.  None where another walk placed them (the set of nodes such
    a walk places does not depend on the order it pops ready nodes in)."""
    edges = _feeding(reachable)
    counts = {node: sum(fed.values()) for node, fed in edges.items()}
    ready, walked = [first], set()
    while ready:
        node = ready.pop()
        walked.add(node)
        for child in {c for c, _ in node.next_functions if c is not None}:
            counts[child] -= 1
            if counts[child] == 0:
                ready.append(child)
    if walked != placed:
        return None
    for child, fed in edges.items():
        twice = next((f for f, n in fed.items() if n > 1 and f in placed), None)
        if child not in placed and twice is not None:
            return _shown(twice), _shown(child)
    return None


def _counted_once(order: list[Any], position: dict[Any, int], reachable: set[micrograph.Node]
                  ) -> tuple[str, str] | None:
    """The node placed before a node feeding it, and a node placed before it that feeds it through
    two entries of its next_functions (``b = a + a``), where the whole order is one a Kahn walk
    makes that counts each feeding node once but takes away one per edge: every node placed
    once the edges from the nodes before it were at least as many as the nodes feeding it.
    None where some node was placed with fewer (another walk: the count is not the cause)."""
    edges = _feeding(reachable)
    early = None
    for node in order:
        feeders = edges.get(node, {})
        before = [f for f in feeders if position.get(f, len(order)) < position[node]]
        if sum(feeders[f] for f in before) < len(feeders):
            return None
        twice = next((f for f in before if feeders[f] > 1), None)
        if early is None and twice is not None and len(before) < len(feeders):
            early = _shown(node), _shown(twice)
    return early


def _shown(node: micrograph.Node) -> str:
    """A node's name as the sentences spell it: ``AccumulateGrad``, not torch's qualified name."""
    name = str(node.name())
    return name.rpartition("::")[2]


def order_report(order: object, root: Value, label: str, names_apart: bool | None = None,
                 drops_leaves: bool = False) -> list[dict[str, Any]]:
    """Whether ``order`` is a topological order of root's graph, one CHECK fact per property
    (the properties of a list that is no list of nodes cannot be judged: None).  A node left out
    is told as merged with a namesake only where ``names_apart`` (the same code's order of a
    graph whose nodes all have names of their own is complete); else, where every node feeding
    it is placed, with the one of those reached by more than one edge (``_fed_by``).  Where
    ``drops_leaves`` (the same code's order of a graph no op node of which is reached twice leaves
    out its AccumulateGrad nodes, and only those: no walk expanding a node twice does that), an
    order that leaves out every AccumulateGrad node and nothing else is told as that
    (``~leaves``); one that leaves out root.grad_fn, as that (``~root``)."""
    nodes = type(order) in (list, tuple) and all(isinstance(n, micrograph.Node) for n in order) and _by_identity(order)
    checks = [check(Check.LIST_OF_NODES, nodes, label)]
    if not nodes:
        if type(order) in (list, tuple):  # context: what it held instead of a node, told beside the difference
            checks[0].update({CONTEXT + "holds_none": any(n is None for n in order),
                              CONTEXT + "holds_value": any(isinstance(n, Value) for n in order)})
        return checks + [check(c, None, label) for c in PROPERTIES]
    # each node's first position (pairs from the end: an earlier one overwrites a later one);
    # the edges read from each node's next_functions (thousands of them on a chain)
    position = dict(zip(reversed(order), range(len(order) - 1, -1, -1)))  # type: ignore[arg-type]
    parents_first = not any((there := position.get(child)) is not None and there <= position[node]
                            for node in order for child, _ in node.next_functions if child is not None)  # type: ignore[union-attr]
    holds = {
        Check.STARTS_AT_ROOT: bool(order) and order[0] is root.grad_fn,  # type: ignore[index]
        Check.EACH_ONCE: len(position) == len(order),  # type: ignore[arg-type]
        Check.COMPLETE: position.keys() == _reachable(root),
        Check.PARENTS_FIRST: parents_first,
    }
    facts = [check(c, holds[c], label) for c in PROPERTIES]
    reachable = _reachable(root)
    left_out = reachable - position.keys()
    complete = facts[PROPERTIES.index(Check.COMPLETE)]
    if left_out and names_apart:  # a node left out whose namesake is kept: nodes told apart by name() merge
        kept = {n.name() for n in position}
        complete[CONTEXT + "namesake"] = any(n.name() in kept for n in left_out)
    complete[CONTEXT + "root"] = root.grad_fn in left_out  # the node every other one is reached from
    leaves = {n for n in reachable if isinstance(n, micrograph.AccumulateGrad)}
    complete[CONTEXT + "leaves"] = drops_leaves and bool(left_out) and left_out == leaves  # every one, only those
    per_node = _taken_per_node(set(position), reachable, root.grad_fn) if left_out and root.grad_fn else None
    if per_node is not None:
        complete.update({CONTEXT + "feeder": per_node[0], CONTEXT + "op": per_node[1]})
    fed_by = _fed_by(left_out, position, reachable) if left_out and not complete[CONTEXT + "leaves"] else None
    if fed_by is not None and per_node is None:
        complete[CONTEXT + "fed_by"] = fed_by
    counted = None if parents_first else _counted_once(order, position, reachable)  # type: ignore[arg-type]
    if counted is not None:
        facts[PROPERTIES.index(Check.PARENTS_FIRST)].update(
            {CONTEXT + "counted_once": True, CONTEXT + "op": counted[0], CONTEXT + "feeder": counted[1],
             CONTEXT + "feeder_namesake": counted[0] == counted[1]})  # "another" MulBackward0 feeds a MulBackward0
    return checks + facts


def leaves_only_left_out(order: object, root: Value) -> bool:
    """Whether ``order`` lists root's graph but for its AccumulateGrad nodes, every one of them."""
    if type(order) not in (list, tuple) or not all(isinstance(n, micrograph.Node) for n in order) or not _by_identity(order):
        return False
    reachable = _reachable(root)
    leaves = {n for n in reachable if isinstance(n, micrograph.AccumulateGrad)}
    return bool(leaves) and set(order) == reachable - leaves


PROPERTIES = (Check.STARTS_AT_ROOT, Check.EACH_ONCE, Check.COMPLETE, Check.PARENTS_FIRST)
