"""Reading a GRAPH fact's nodes for the judge (``grader.judge.shapes``): the nodes, the names the
graph reaches, an input's index, the op as the student's engine named it, and where a node is,
told from the submission's side (a node's name if the probe named it, else the nearest named node
above it).  Kept apart from ``shapes``, which tells how two graphs differ: these read one graph
only, and compare nothing.
"""

from __future__ import annotations

import re
from typing import Any

from grader.spec.facts import CONTEXT

GraphNode = dict[str, Any]


def nodes_of(fact: dict[str, Any]) -> list[GraphNode]:
    """A GRAPH fact's nodes, those that are dicts (a fact from the child is read, never trusted)."""
    nodes = fact.get("nodes")
    return [n for n in nodes if type(n) is dict] if type(nodes) is list else []


LABEL_NOTE = re.compile(r" \([^()]*\)$")  # a label's note on the case: "y (x = 0)"
BELOW_ROOT = "a node below its root"  # where an unnamed node with no named node above it is


def node_place(nodes: list[GraphNode], i: int, label: str) -> str:
    """``a`` for a named node, ``a node below a`` for an unnamed one, the root by its label
    without its note on the case (``shapes._at`` then says "its root": "y (x = 0)'s graph differs at
    its root"); a node below an unnamed root is "a node below its root", not below the graph's
    label again ("leaf_grads's graph differs at a node below leaf_grads")."""
    label = LABEL_NOTE.sub("", label)
    parent: dict[int, int] = {}
    for j, node in enumerate(nodes):
        for k in node.get("in") or []:
            if type(k) is int and k not in parent and k != j:
                parent[k] = j
    at, seen = i, set()
    while at not in seen:
        seen.add(at)
        name = nodes[at].get("name") if at < len(nodes) else None
        if at == 0 or name:
            if at != i:
                return f"a node below {name}" if name else BELOW_ROOT
            return str(name) if name else label
        if at not in parent:
            break
        at = parent[at]
    return BELOW_ROOT


def named_reached(fact: dict[str, Any]) -> set[str]:
    """The names of every named Value a GRAPH fact's graph reaches, as a node or a leaf."""
    named = fact.get(CONTEXT + "named")
    return {n for n in named if type(n) is str} if type(named) is list else set()


def input_ref(k: object, count: int) -> int | None:
    """An input index ``k`` of a node, where it is one of the graph's ``count`` nodes (None for a
    constant, or an index the fact should not hold)."""
    return k if type(k) is int and 0 <= k < count else None


def shown_op(node: GraphNode) -> object:
    """A node's op as the student's engine named it (``AddBackward0``), not the flat graph's
    merged ``Sum`` that the comparison uses."""
    return node.get(CONTEXT + "op") or node.get("op")
