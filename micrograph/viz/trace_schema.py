"""Checking a trace dict before drawing it: like ``schema`` for graphs, it may come from untrusted code.

The grader records a trace in the student's sandboxed process and draws the
page in the parent.  ``validate`` rebuilds the dict from what it checked (so
no unexpected key or type reaches the page) or raises one ``ValueError``
naming the first problem; sizes are capped.
"""

from __future__ import annotations

import math
import re
from typing import Any

from micrograph.viz import schema
from micrograph.viz.schema import _count, _float, _show, _text

FORMAT = "micrograph.trace/1"
MAX_STEPS = 200_000
MAX_EDGES_PER_STEP = 4096
_REF = re.compile(r"n[0-9]{1,7}")
_DIAGRAM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,31}")


def validate(raw: Any) -> dict[str, Any]:
    """The checked copy of a ``BackwardTrace.data`` dict, or ValueError naming what is wrong."""
    if not isinstance(raw, dict):
        raise ValueError(f"a trace must be a dict made by trace_backward(), got {type(raw).__name__}")
    if raw.get("format") != FORMAT:
        raise ValueError(f"trace: 'format' must be {FORMAT!r}, got {_show(raw.get('format'))}")
    graph = raw.get("graph")
    schema.validate(graph)
    nodes = _nodes(raw.get("nodes"))
    steps = raw.get("steps")
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise ValueError(f"trace: steps must be a list of at most {MAX_STEPS} entries")
    total = len(steps) if raw.get("steps_total") is None else _count(raw["steps_total"], "steps_total")
    if total < len(steps):
        raise ValueError(f"trace: steps_total ({total}) is less than the {len(steps)} steps given")
    return {
        "format": FORMAT, "graph": graph, "pass": _pass(raw.get("pass"), nodes), "nodes": nodes,
        "steps": [_step(s, f"steps[{i}]", nodes) for i, s in enumerate(steps)], "steps_total": total,
        "error": _error(raw.get("error"), nodes),
    }


def _nodes(raw: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, dict) or len(raw) > MAX_STEPS:
        raise ValueError("trace: nodes must be a dict of ref -> node")
    out = {}
    for ref, node in raw.items():
        where = f"nodes[{_show(ref)}]"
        if not isinstance(ref, str) or not _REF.fullmatch(ref) or not isinstance(node, dict):
            raise ValueError(f"trace: {where} must map a ref like 'n0' to a dict")
        out[ref] = {
            "name": _text(node.get("name"), f"{where}.name"),
            "label": None if node.get("label") is None else _text(node["label"], f"{where}.label"),
            "op": _diagram_id(node.get("op"), f"{where}.op"),
            "value": _diagram_id(node.get("value"), f"{where}.value"),
        }
    return out


def _pass(raw: Any, nodes: dict[str, Any]) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError(f"trace: pass must be a dict, got {type(raw).__name__}")
    if raw.get("kind") not in ("backward", "grad"):
        raise ValueError(f"trace: pass.kind must be backward or grad, got {_show(raw.get('kind'))}")
    roots, deps, ready = raw.get("roots"), raw.get("dependencies"), raw.get("ready")
    if not isinstance(roots, list) or not isinstance(deps, dict) or not isinstance(ready, list):
        raise ValueError("trace: pass.roots and pass.ready must be lists, pass.dependencies a dict")
    return {
        "kind": raw["kind"],
        "retain_graph": _bool(raw.get("retain_graph"), "pass.retain_graph"),
        "create_graph": _bool(raw.get("create_graph"), "pass.create_graph"),
        "roots": [{"node": _ref(r.get("node") if isinstance(r, dict) else None, f"pass.roots[{i}]", nodes),
                   "grad": _number(r.get("grad"), f"pass.roots[{i}].grad")} for i, r in enumerate(roots)],
        "dependencies": {_ref(k, "pass.dependencies", nodes): _count(c, f"pass.dependencies[{k}]")
                         for k, c in deps.items()},
        "ready": [_ref(r, "pass.ready", nodes) for r in ready],
    }


def _step(raw: Any, where: str, nodes: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"trace: {where} must be a dict, got {type(raw).__name__}")
    sent, waiting, ready = raw.get("sent"), raw.get("waiting"), raw.get("ready")
    for key, items in (("sent", sent), ("waiting", waiting), ("ready", ready)):
        if not isinstance(items, list) or len(items) > (MAX_STEPS if key == "ready" else MAX_EDGES_PER_STEP):
            raise ValueError(f"trace: {where}.{key} must be a list")
    return {
        "node": _ref(raw.get("node"), f"{where}.node", nodes),
        "received": _number(raw.get("received"), f"{where}.received"),
        "contributions": _count(raw.get("contributions"), f"{where}.contributions"),
        "grad": _number(raw.get("grad"), f"{where}.grad"),
        "sent": [_send(s, f"{where}.sent[{i}]", nodes) for i, s in enumerate(sent)],  # type: ignore[arg-type]
        "waiting": [_waiting(w, f"{where}.waiting[{i}]", nodes) for i, w in enumerate(waiting)],  # type: ignore[arg-type]
        "wrote": _wrote(raw.get("wrote"), f"{where}.wrote"),
        "released": _bool(raw.get("released"), f"{where}.released"),
        "ready": [_ref(r, f"{where}.ready", nodes) for r in ready],  # type: ignore[union-attr]
    }


def _send(raw: Any, where: str, nodes: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"trace: {where} must be a dict")
    to = raw.get("to")
    return {
        "to": None if to is None else _ref(to, f"{where}.to", nodes),
        "edge": _diagram_id(raw.get("edge"), f"{where}.edge"),
        "grad": _number(raw.get("grad"), f"{where}.grad"),
    }


def _waiting(raw: Any, where: str, nodes: dict[str, Any]) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise ValueError(f"trace: {where} must be [ref, count]")
    return [_ref(raw[0], where, nodes), _count(raw[1], where)]


def _wrote(raw: Any, where: str) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.get("by") not in ("AccumulateGrad", "retain_grad"):
        raise ValueError(f"trace: {where} must be null or a dict with 'by' AccumulateGrad or retain_grad")
    return {
        "value": _diagram_id(raw.get("value"), f"{where}.value"),
        "label": None if raw.get("label") is None else _text(raw["label"], f"{where}.label"),
        "by": raw["by"],
        "grad": _number(raw.get("grad"), f"{where}.grad"),
    }


def _error(raw: Any, nodes: dict[str, Any]) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError("trace: error must be null or a dict")
    node = raw.get("node")
    return {
        "step": _count(raw.get("step"), "error.step"),
        "node": None if node is None else _ref(node, "error.node", nodes),
        "type": _text(raw.get("type"), "error.type"),
        "message": _text(raw.get("message"), "error.message"),
    }


def _ref(x: Any, where: str, nodes: dict[str, Any]) -> str:
    if not isinstance(x, str) or x not in nodes:
        raise ValueError(f"trace: {where} must name a node of the trace, got {_show(x)}")
    return x


def _diagram_id(x: Any, where: str) -> str | None:
    if x is None:
        return None
    if not isinstance(x, str) or not _DIAGRAM_ID.fullmatch(x):
        raise ValueError(f"trace: {where} must be a diagram id or null, got {_show(x)}")
    return x


def _number(x: Any, where: str) -> float | str | None:
    value = _float(x, where)
    if value is None or math.isfinite(value):
        return value
    return str(value)


def _bool(x: Any, where: str) -> bool:
    if not isinstance(x, bool):
        raise ValueError(f"trace: {where} must be true or false, got {_show(x)}")
    return x
