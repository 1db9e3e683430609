"""The submission's graph from a failed public test, drawn with its first differing node marked.

A GRAPH fact (``grader.spec.graph``) holds the structure of the graph a student's function
built, in canonical order; ``grader.judge.shapes`` found the first node where it differs from
the reference's.  This turns the student's fact into a ``micrograph.viz`` graph with that node
``marked``, so the diagram shows the student where their graph departs from the statement's:
op nodes under the names the engine gave them (``AddBackward0``, not the comparison's merged
``Sum``), the numbers the named Values and the leaves held, and each leaf's .grad as it was, all
from the fact's context fields (the student's own run: no number of the reference's).  A leaf the
probe did not name (one the student's code made inside the call) is drawn without a name, as an
unnamed non-leaf is, not as the fact's "?".  The fact came from the child: anything malformed
gives no drawing, never an error.
"""

from __future__ import annotations

from typing import Any

from micrograph.viz.graph_format import FORMAT

from grader.spec.facts import CONTEXT, DRAWN_AS, UNNAMED

MAX_DRAWN = 400  # nodes of a fact worth drawing; a larger graph is not a picture a student reads
STEM = "difference"


def _ref(j: object, count: int) -> int | None:
    return j if type(j) is int and 0 <= j < count else None


def _number(node: dict[str, Any], key: str) -> float | None:
    """A number of the fact's context (``~data``, ``~grad``), or None when it has none."""
    value = node.get(CONTEXT + key)
    return float(value) if type(value) in (int, float) else None


def _op(i: int, node: dict[str, Any], mark: bool, label: str) -> list[dict[str, Any]]:
    name = node.get("name") if type(node.get("name")) is str else None
    shown = node.get(CONTEXT + "op")
    return [
        {"id": f"f{i}", "kind": "op", "op": str(shown if type(shown) is str else node.get("op"))[:60],
         "freed": node.get("saved") == "freed", "saved": [], "marked": mark},
        {"id": f"v{i}", "kind": "value", "role": "output" if i == 0 else "intermediate",
         "name": label if i == 0 and name is None else name, "data": _number(node, "data"),
         "grad": None},
    ]


def viz_graph(fact: dict[str, Any], marked: int, label: str) -> dict[str, Any] | None:
    """The ``graph_json``-format dict of a GRAPH fact with node ``marked`` marked, or None."""
    nodes = fact.get("nodes")
    if type(nodes) is not list or not 0 < len(nodes) <= MAX_DRAWN:
        return None
    drawn: list[dict[str, Any]] = []
    edges: list[dict[str, str]] = []
    for i, node in enumerate(nodes):
        if type(node) is not dict:
            return None
        if node.get("op") == "AccumulateGrad":
            leaf = node.get("leaf") if type(node.get("leaf")) is str and node["leaf"] != UNNAMED else node.get(DRAWN_AS)
            leaf = leaf if type(leaf) is str else None
            drawn.append({"id": f"v{i}", "kind": "value", "role": "leaf", "name": leaf,
                          "data": _number(node, "data"), "grad": _number(node, "grad"),
                          "marked": i == marked})
            continue
        drawn += _op(i, node, i == marked, label)
        inputs = next((node[k] for k in (CONTEXT + "in", "in") if type(node.get(k)) is list), [])
        for k, j in enumerate(inputs):
            source = _ref(j, len(nodes))
            if source is None:
                drawn.append({"id": f"c{i}_{k}", "kind": "value", "role": "const", "name": None,
                              "data": None, "grad": None})
                edges.append({"from": f"c{i}_{k}", "to": f"f{i}"})
            else:
                edges.append({"from": f"v{source}", "to": f"f{i}"})
        edges.append({"from": f"f{i}", "to": f"v{i}"})
    return {"format": FORMAT, "nodes": drawn, "edges": edges, "omitted": 0, "truncated": False}
