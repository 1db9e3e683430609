"""Checking a graph dict before drawing it: it may come from untrusted code.

The grader's parent draws what a student's sandboxed process reported, so the
dict can be anything JSON can hold.  ``validate`` turns it into typed records or
raises one ``ValueError`` naming the first problem (``nodes[3].role must be one
of ...``); it never lets a malformed dict reach the DOT builder.  Numbers come
back as floats (``"nan"``/``"inf"`` strings included), texts are cut to a label's
length, and sizes are capped so that a forged graph cannot make the renderer run
for hours.
"""

from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple, TypeVar

from micrograph.viz.graph_format import FORMAT, MAX_SAVED

ROLES = ("output", "leaf", "retained", "intermediate", "const", "bare", "unpaired", "value_entry")
"""``bare`` and ``unpaired``: an entry of a node's ``next_functions`` that is no (node, input_nr)
pair (a student's engine), a node given without its input number or anything else; ``name`` is
then what the entry is (the node's name, ``None`` or a type), never a name the caller gave.
``value_entry``: a pair whose node is a Value itself (a leaf's edge to the leaf, not to a node);
``name`` is the name the caller gave that Value, else its type."""
MAX_NODES = 20_000
MAX_EDGES = 100_000
MAX_TEXT = 200
T = TypeVar("T")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,31}")


class ValueNode(NamedTuple):
    id: str
    role: str
    name: str | None
    data: float | None
    grad: float | None
    marked: bool = False  # drawn with a thick border (the grader marks where a graph differs)


class SavedItem(NamedTuple):
    slot: str
    data: float | bool | None  # a bool: where() saves its condition
    saved_version: int | None
    version: int | None


class OpNode(NamedTuple):
    id: str
    op: str
    freed: bool
    saved: tuple[SavedItem, ...]
    marked: bool = False


class OmittedNode(NamedTuple):
    id: str


class Graph(NamedTuple):
    nodes: tuple[ValueNode | OpNode | OmittedNode, ...]
    edges: tuple[tuple[str, str], ...]
    omitted: int


def validate(graph: Any) -> Graph:
    """The typed form of a ``graph_json`` dict, or ValueError naming what is wrong."""
    if not isinstance(graph, dict):
        raise ValueError(f"a graph must be a dict made by graph_json(), got {type(graph).__name__}")
    if graph.get("format") != FORMAT:
        raise ValueError(f"graph: 'format' must be {FORMAT!r}, got {_show(graph.get('format'))}")
    nodes = _list(graph, "nodes", MAX_NODES, "graph")
    edges = _list(graph, "edges", MAX_EDGES, "graph")
    omitted = _count(graph.get("omitted"), "graph.omitted")
    typed = tuple(_node(n, f"nodes[{i}]") for i, n in enumerate(nodes))
    ids = {n.id for n in typed}
    if len(ids) != len(typed):
        raise ValueError("graph: node ids must be unique")
    return Graph(typed, tuple(_edge(e, f"edges[{i}]", ids) for i, e in enumerate(edges)), omitted)


def _node(raw: Any, where: str) -> ValueNode | OpNode | OmittedNode:
    if not isinstance(raw, dict):
        raise ValueError(f"graph: {where} must be a dict, got {type(raw).__name__}")
    node_id = raw.get("id")
    if not isinstance(node_id, str) or not _ID.fullmatch(node_id):
        raise ValueError(f"graph: {where}.id must be 1-32 letters, digits or _ (not first), got {_show(node_id)}")
    kind = raw.get("kind")
    if kind == "value":
        role = raw.get("role")
        if role not in ROLES:
            raise ValueError(f"graph: {where}.role must be one of {', '.join(ROLES)}, got {_show(role)}")
        return ValueNode(
            node_id, role, _optional(_text, raw.get("name"), f"{where}.name"),
            _float(raw.get("data"), f"{where}.data"), _float(raw.get("grad"), f"{where}.grad"),
            _marked(raw, where),
        )
    if kind == "op":
        freed = raw.get("freed")
        if not isinstance(freed, bool):
            raise ValueError(f"graph: {where}.freed must be true or false, got {_show(freed)}")
        saved = _list(raw, "saved", MAX_SAVED, where)
        return OpNode(
            node_id, _text(raw.get("op"), f"{where}.op"), freed,
            tuple(_saved(s, f"{where}.saved[{j}]") for j, s in enumerate(saved)), _marked(raw, where),
        )
    if kind == "omitted":
        return OmittedNode(node_id)
    raise ValueError(f"graph: {where}.kind must be value, op or omitted, got {_show(kind)}")


def _marked(raw: dict[str, Any], where: str) -> bool:
    marked = raw.get("marked", False)
    if not isinstance(marked, bool):
        raise ValueError(f"graph: {where}.marked must be true or false, got {_show(marked)}")
    return marked


def _saved(raw: Any, where: str) -> SavedItem:
    if not isinstance(raw, dict):
        raise ValueError(f"graph: {where} must be a dict, got {type(raw).__name__}")
    return SavedItem(
        _text(raw.get("slot"), f"{where}.slot"),
        raw["data"] if type(raw.get("data")) is bool else _float(raw.get("data"), f"{where}.data"),
        _optional(_count, raw.get("saved_version"), f"{where}.saved_version"),
        _optional(_count, raw.get("version"), f"{where}.version"),
    )


def _edge(raw: Any, where: str, ids: set[str]) -> tuple[str, str]:
    if not isinstance(raw, dict):
        raise ValueError(f"graph: {where} must be a dict, got {type(raw).__name__}")
    ends = raw.get("from"), raw.get("to")
    for end in ends:
        if not isinstance(end, str) or end not in ids:
            raise ValueError(f"graph: {where} must join two node ids, got {_show(end)}")
    return ends  # type: ignore[return-value]


def _list(raw: dict[str, Any], key: str, limit: int, where: str) -> list[Any]:
    items = raw.get(key)
    if not isinstance(items, list):
        raise ValueError(f"graph: {where}.{key} must be a list, got {type(items).__name__}")
    if len(items) > limit:
        raise ValueError(f"graph: {where}.{key} has {len(items)} entries, more than the {limit} that are drawn")
    return items


def _float(x: Any, where: str) -> float | None:
    """A number, None, or the strings JSON uses for nan and infinities."""
    if x is None:
        return None
    if type(x) is float:
        return x
    if type(x) is int and abs(x) < 2**1023:  # a larger int has no float
        return float(x)
    if x in ("nan", "inf", "-inf"):
        return float(x)
    raise ValueError(f"graph: {where} must be a number or null, got {_show(x)}")


def _count(x: Any, where: str) -> int:
    if type(x) is int and x >= 0:
        return x
    raise ValueError(f"graph: {where} must be a non-negative integer, got {_show(x)}")


def _text(x: Any, where: str) -> str:
    if isinstance(x, str):
        return x[:MAX_TEXT]
    raise ValueError(f"graph: {where} must be a string, got {_show(x)}")


def _optional(check: Callable[[Any, str], T], x: Any, where: str) -> T | None:
    return None if x is None else check(x, where)


def _show(x: Any) -> str:
    """A short, safe rendering of an offending value for an error message."""
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."

