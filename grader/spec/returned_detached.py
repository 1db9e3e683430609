"""The leaves a result's graph holds, and the one a returned Value is a detach() of.

Code that computed its result from leaves it made, then returned a ``detach()`` of each in their
place (``v.detach().requires_grad_()``: a new leaf again), returned Values that share the numbers
and version counters of the leaves the result's graph holds, but that no graph reaches.  Compared
by name, that graph "never reaches" the names and "reaches a leaf the statement's does not", both
of which send the student hunting in the computation, which is the statement's: only the Values
returned are others.  A probe that finds the leaf each returned Value is a detach() of compares the
graph with those leaves, and tells the detach() alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import micrograph
from micrograph.value import shares_storage, shares_version_counter

from grader.spec.graph import MAX_NODES


def graph_leaves(roots: Iterable[Any]) -> list[Any]:
    """The leaves (AccumulateGrad nodes' Values) the graphs of ``roots`` reach, in the order a
    depth-first walk meets them; at most ``MAX_NODES`` nodes are walked (a runaway graph)."""
    stack = [v.grad_fn for v in roots if isinstance(v, micrograph.Value) and v.grad_fn is not None]
    seen, leaves = {id(node) for node in stack}, []
    while stack and len(seen) <= MAX_NODES:
        node = stack.pop()
        if isinstance(node, micrograph.AccumulateGrad):
            leaves.append(node.variable)
        for child, _ in node.next_functions:
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return leaves


def detached_source(v: object, leaves: list[Any]) -> Any:
    """The leaf among ``leaves`` that ``v`` is a detach() of (another Value sharing its number and
    its version counter, as ``detach()`` makes; ``.data`` shares no counter), or None."""
    if not isinstance(v, micrograph.Value) or v.grad_fn is not None:
        return None
    return next((leaf for leaf in leaves if leaf is not v and shares_storage(leaf, v)
                 and shares_version_counter(leaf, v)), None)


def detached_sources(names: Mapping[str, Any], roots: list[Any]) -> dict[str, Any]:
    """The leaves the graphs of ``roots`` hold, by the names of the Values returned, where each of
    them is a detach() of one (``v.detach().requires_grad_()`` returned for each leaf the result was
    computed from): the graphs are compared with those leaves, and the detach() told; else empty."""
    leaves = graph_leaves(roots)
    sources = {name: detached_source(v, leaves) for name, v in names.items()}
    return sources if sources and None not in sources.values() else {}
