"""Whether a list is a topological order of a graph, judged property by property (one CHECK
fact each: a list of nodes, root.grad_fn first, each node once, every reachable node, parents
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


def order_report(order: object, root: Value, label: str) -> list[dict[str, Any]]:
    """Whether ``order`` is a topological order of root's graph, one CHECK fact per property
    (the properties of a list that is no list of nodes cannot be judged: None)."""
    nodes = type(order) is list and all(isinstance(n, micrograph.Node) for n in order) and _by_identity(order)
    checks = [check(Check.LIST_OF_NODES, nodes, label)]
    if not nodes:
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
    left_out = _reachable(root) - position.keys()
    if left_out:  # a node left out whose namesake is kept: nodes told apart by name() merge
        kept = {n.name() for n in position}
        facts[PROPERTIES.index(Check.COMPLETE)][CONTEXT + "namesake"] = any(n.name() in kept for n in left_out)
    return checks + facts


PROPERTIES = (Check.STARTS_AT_ROOT, Check.EACH_ONCE, Check.COMPLETE, Check.PARENTS_FIRST)
