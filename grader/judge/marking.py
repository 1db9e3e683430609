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
         "freed": node.get("saved", node.get(CONTEXT + "saved")) == "freed", "saved": [], "marked": mark},
        {"id": f"v{i}", "kind": "value", "role": "output" if i == 0 else "intermediate",
         "name": label if i == 0 and name is None else name, "data": _number(node, "data"),
         "grad": None},
    ]


def _constant(node: dict[str, Any], nth: int) -> tuple[str | None, float | None]:
    """The name and number of the node's ``nth`` input that needs no grad, where the fact's
    ``~const`` tells them (what the node saved there: the student's named Value, or a number),
    else (None, None): drawn as a nameless constant."""
    told = node.get(CONTEXT + "const")
    entry = told[nth] if type(told) is list and nth < len(told) else None
    if type(entry) is not list or len(entry) != 2:
        return None, None
    name, data = entry
    return (name[:60] if type(name) is str else None), (float(data) if type(data) in (int, float) else None)


def _later_outputs(nodes: list[Any]) -> tuple[dict[tuple[int, int], dict[str, Any]], dict[int, str]]:
    """A value of its own for each later output of a node that some input reads (``~nr``: a layer's
    entries), named and numbered where the fact's ``~outputs`` says, keyed by (node, output); and
    the name ``~outputs`` gives a node's first output."""
    told: dict[tuple[int, int], tuple[object, object]] = {}
    for j, node in enumerate(n for n in nodes if type(n) is dict):
        outs = node.get(CONTEXT + "outputs")
        for out in outs if type(outs) is list else []:
            if type(out) is list and len(out) == 3 and type(out[0]) is int:
                told[(j, out[0])] = (out[1], out[2])
    later: dict[tuple[int, int], dict[str, Any]] = {}
    for node in (n for n in nodes if type(n) is dict):
        ins, nrs = node.get(CONTEXT + "in"), node.get(CONTEXT + "nr")
        for j, nr in zip(ins, nrs) if type(ins) is list and type(nrs) is list else []:
            if _ref(j, len(nodes)) is not None and type(nr) is int and nr > 0 and (j, nr) not in later:
                name, data = told.get((j, nr), (None, None))
                later[(j, nr)] = {"id": f"v{j}_{nr}", "kind": "value", "role": "intermediate",
                                  "name": name if type(name) is str else None,
                                  "data": float(data) if type(data) in (int, float) else None, "grad": None}
    return later, {j: name for (j, nr), (name, _) in told.items() if nr == 0 and type(name) is str}


def viz_graph(fact: dict[str, Any], marked: int, label: str) -> dict[str, Any] | None:
    """The ``graph_json``-format dict of a GRAPH fact with node ``marked`` marked, or None.  A node's
    later outputs that inputs read (a layer's entries) are values of their own beside its first."""
    nodes = fact.get("nodes")
    if type(nodes) is not list or not 0 < len(nodes) <= MAX_DRAWN:
        return None
    later, first = _later_outputs(nodes)
    drawn: list[dict[str, Any]] = list(later.values())
    edges: list[dict[str, str]] = [{"from": f"f{j}", "to": box["id"]} for (j, _), box in later.items()]
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
        drawn[-1]["name"] = drawn[-1]["name"] or first.get(i)
        inputs = next((node[k] for k in (CONTEXT + "in", "in") if type(node.get(k)) is list), [])
        nrs = node.get(CONTEXT + "nr") if type(node.get(CONTEXT + "in")) is list else None
        nrs = nrs if type(nrs) is list else []
        for k, j in enumerate(inputs):
            source = _ref(j, len(nodes))
            nr = nrs[k] if k < len(nrs) and type(nrs[k]) is int else 0
            if source is not None and (source, nr) in later:
                edges.append({"from": later[(source, nr)]["id"], "to": f"f{i}"})
                continue
            if source is None:
                name, data = _constant(node, inputs[:k].count(None))
                drawn.append({"id": f"c{i}_{k}", "kind": "value", "role": "const", "name": name,
                              "data": data, "grad": None})
                edges.append({"from": f"c{i}_{k}", "to": f"f{i}"})
            else:
                edges.append({"from": f"v{source}", "to": f"f{i}"})
        edges.append({"from": f"f{i}", "to": f"v{i}"})
    return {"format": FORMAT, "nodes": drawn, "edges": edges, "omitted": 0, "truncated": False}
