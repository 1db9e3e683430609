"""``graph_json``: the graph behind some Values, as plain JSON data.

This is the half of the diagram that runs where the Values live: in a notebook,
or in the grader's sandboxed child, which may only send plain data to the parent
that draws.  So it must be safe on anything a student built: it walks with an
explicit queue (a chain of a million ops needs no recursion), draws at most
``max_nodes`` nodes, nearest the outputs first, and counts what it left out.

The picture has two kinds of nodes, as the documents draw a graph: *values*
(data and grad) and *ops* (the ``grad_fn`` that made a value).  An op node and
the value it made are created together; a leaf's ``AccumulateGrad`` is drawn as
the leaf itself (where a student's engine made several for one leaf, each is drawn
as an op of its own above the leaf); an input that does not require grad (``None`` in
``next_functions``) becomes a small constant node.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from micrograph.node import Node
from micrograph.value import Value
from micrograph.viz import internals
from micrograph.viz.graph_format import FORMAT, MAX_SAVED, is_stale
from micrograph.viz.protocol import ProtocolReader, Unpaired

Reader = internals.EngineReader | ProtocolReader

DEFAULT_MAX_NODES = 400
MAX_NAME = 60  # longer names are cut: a label, not a place for essays

Key = Value | Node | tuple[Node, int]
"""A leaf or constant is keyed by its Value, any other value by its grad_fn, and an output of a node
with several (a layer's entries) other than the first by the node and which output it is."""
Operands = Mapping[Node, Sequence[Value]]  # an op node's inputs, in order, as its builder saw them


def graph_json(
    *roots: Value, names: Mapping[str, Value] | None = None, max_nodes: int = DEFAULT_MAX_NODES,
    operands: Operands | None = None,
) -> dict[str, Any]:
    """The graph behind ``roots`` as a dict of lists, strings, numbers and booleans.

    ``names`` maps a label to a Value (``{"w": w, "y": y}``); unnamed values show
    their data only.  At most ``max_nodes`` nodes are kept (the outputs and what
    is nearest them); ``"omitted"`` counts the others and ``"truncated"`` says
    whether there were any.  ``operands`` gives, for an op node, the Values it was
    made from in input order, where whoever built the graph watched them: an input
    that needs no grad (``None`` in ``next_functions``: PyTorch keeps no reference)
    is then drawn as that Value, named, not as a nameless constant.
    """
    return graph_json_with_ids(*roots, names=names, max_nodes=max_nodes, operands=operands)[0]


class DiagramIds(NamedTuple):
    """Where the engine's objects are drawn: what the backward trace needs to light them up."""

    values: dict[Key, str]  # a leaf or constant by its Value, any other value by its grad_fn (``Key``)
    ops: dict[Node, str]  # each op node drawn (AccumulateGrad is drawn as its leaf)
    inputs: dict[Node, tuple[str | None, ...]]  # per op, the id its input i is drawn at (None: left out)


def graph_json_with_ids(
    *roots: Value, names: Mapping[str, Value] | None = None, max_nodes: int = DEFAULT_MAX_NODES,
    operands: Operands | None = None,
) -> tuple[dict[str, Any], DiagramIds]:
    """``graph_json`` and the ids it gave to the engine's values and nodes."""
    reader = _reader(roots, names)
    _check_arguments(roots, names, max_nodes, reader)
    collector = _Collector(roots, names or {}, max_nodes, reader, operands or {})
    graph = collector.run()
    return graph, DiagramIds(collector.value_ids, collector.op_ids, collector.input_ids)


def drawable(roots: list[Any], names: Any = None) -> tuple[list[Any], Any]:
    """The ``roots`` and ``names`` that ``graph_json`` draws, without what it cannot (a number
    returned where a Value was meant): a grader draws what Values an answer holds, and says why
    where it holds none."""
    reader = _reader(tuple(roots), names)
    kept = [r for r in roots if reader.is_value(r)]
    if not isinstance(names, Mapping):
        return kept, names
    return kept, {k: v for k, v in names.items() if isinstance(k, str) and reader.is_value(v)}


def _reader(roots: tuple[Any, ...], names: Any) -> Reader:
    """micrograph's own reads when every root is a micrograph Value; else the protocol's, which
    any engine with PyTorch's public names answers (a student's, in the build track)."""
    if all(isinstance(r, Value) for r in roots):
        return internals.EngineReader()
    named = list(names.values()) if isinstance(names, Mapping) else []
    return ProtocolReader([*roots, *named])


def _check_arguments(roots: tuple[Any, ...], names: Any, max_nodes: Any, reader: Reader) -> None:
    if not roots:
        raise TypeError("graph_json() needs at least one Value to draw")
    for i, r in enumerate(roots):
        if not reader.is_value(r):
            raise TypeError(f"graph_json() draws Values, got {type(r).__name__} for root {i}: pass draw(y1, y2, ...)")
    if names is not None:
        if not isinstance(names, Mapping):
            raise TypeError(f"names must be a dict of name -> Value, got {type(names).__name__}")
        for k, v in names.items():
            if not isinstance(k, str) or not reader.is_value(v):
                raise TypeError(f"names must map str -> Value, got {type(k).__name__} -> {type(v).__name__}")
    if type(max_nodes) is not int or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")


def _number(x: float | None) -> float | str | None:
    """JSON has no nan or inf: those travel as strings."""
    if x is None or math.isfinite(x):
        return x
    return str(x)


class _Collector:
    def __init__(self, roots: tuple[Value, ...], names: Mapping[str, Value], max_nodes: int,
                 reader: Reader, operands: Operands) -> None:
        self.reader = reader
        self.operands = operands
        self.roots = list(dict.fromkeys(roots))  # each root once, in the order given
        self.names = names
        self.budget = max_nodes
        self.labels: dict[Key, str] = {}
        for name, v in names.items():
            key = self._key(v)
            self.labels[key] = f"{self.labels[key]}, {name}" if key in self.labels else name
        # Values whose .grad we can read: a non-leaf's grad is reachable only through its Value.
        self.known = {self._key(v): v for v in (*names.values(), *self.roots)}
        self.outputs = {self._key(r) for r in self.roots}
        self.value_ids: dict[Key, str] = {}
        self.op_ids: dict[Node, str] = {}
        self.input_ids: dict[Node, tuple[str | None, ...]] = {}
        self.left_out: set[Key] = set()  # ops (by node), leaves and constants (by Value) not drawn
        self.left_out_ops: set[Key] = set()  # the ops among them
        self.left_out_numbers = 0  # constant inputs not drawn that are plain numbers
        self.counts = {"v": 0, "f": 0}
        self.nodes: list[dict[str, Any]] = []
        self.edges: list[dict[str, str]] = []
        self.queue: deque[Node] = deque()
        self.pending: dict[Node, list[str]] = {}  # the later outputs of a node drawn before the node's op
        self.entries: dict[int, tuple[object, str]] = {}  # a Value held where a node belongs, by id: drawn once
        self.through: dict[Node, Value] = {}  # each AccumulateGrad drawn as its leaf, and that leaf
        self.via: dict[Node, list[dict[str, str]]] = {}  # the edges drawn through each of those nodes

    def _key(self, v: Value) -> Key:
        fn = self.reader.grad_fn(v)
        if fn is None:
            return v
        nr = self.reader.value_output_nr(v)
        return fn if nr == 0 else (fn, nr)

    def run(self) -> dict[str, Any]:
        for i, r in enumerate(self.roots):
            self._reach_value(r, always=i == 0)  # the first output is drawn whatever the cap
        while self.queue:
            self._add_op(self.queue.popleft())
        self._split_accumulators()
        self._add_named_constants()
        omitted = self._count_left_out()
        if omitted:
            self.nodes.append({"id": "omitted", "kind": "omitted"})
        return {"format": FORMAT, "nodes": self.nodes, "edges": self.edges, "omitted": omitted, "truncated": omitted > 0}

    # -- drawing, within the budget -------------------------------------------------------
    def _fits(self, cost: int, always: bool = False) -> bool:
        if cost > self.budget and not always:
            return False
        self.budget -= cost
        return True

    def _reach_value(self, v: Value, always: bool = False) -> str | None:
        """The id of ``v``'s node (drawing it if new), None when the cap leaves it out."""
        fn = self.reader.grad_fn(v)
        if fn is not None:
            nr = self.reader.value_output_nr(v)
            return self._reach(fn, always) if nr == 0 else self._reach_output(fn, nr)
        if v in self.value_ids:
            return self.value_ids[v]
        if v in self.left_out or not self._fits(1, always):
            self.left_out.add(v)
            return None
        requires_grad = self.reader.value_requires_grad(v)
        role = "output" if v in self.outputs else "leaf" if requires_grad else "const"
        grad = self.reader.value_grad(v) if requires_grad else None
        vid = self.value_ids[v] = self._new_value(v, self.reader.value_data(v), role, grad)
        return vid

    def _reach(self, n: Node, always: bool = False) -> str | None:
        """The id of the value ``n`` made (drawing it and queueing ``n``), None when left out."""
        leaf = self.reader.leaf_of(n)
        if leaf is not None and self.reader.value_requires_grad(leaf):
            self.through.setdefault(n, leaf)
            return self._reach_value(leaf, always)
        if leaf is not None:
            return self._accumulating(n, leaf, always)
        if n in self.value_ids:
            return self.value_ids[n]
        if n in self.left_out or not self._fits(2, always):  # the op and the value it made
            self.left_out.add(n)
            self.left_out_ops.add(n)
            return None
        retained = self.reader.node_retained(n)
        role = "output" if n in self.outputs else "intermediate" if retained is None else "retained"
        holder = retained if retained is not None else self.known.get(n)
        grad = None if holder is None else self.reader.value_grad(holder)
        vid = self.value_ids[n] = self._new_value(n, self.reader.node_output(n, holder), role, grad)
        self.queue.append(n)
        return vid

    def _reach_output(self, n: Node, nr: int) -> str | None:
        """The id of output ``nr`` of ``n`` (not its first), drawn as a value of its own with its own
        number where a Value the caller named or drew holds it: a layer's node makes one output per
        entry, and one box for all would show one entry's number for every edge.  The op is drawn
        with its first output; None when the cap leaves this one out."""
        key = (n, nr)
        if key in self.value_ids:
            return self.value_ids[key]
        if key in self.left_out or self._reach(n) is None or not self._fits(1):
            self.left_out.add(key)
            return None
        holder = self.known.get(key)
        data, grad = (None, None) if holder is None else (self.reader.value_data(holder), self.reader.value_grad(holder))
        vid = self.value_ids[key] = self._new_value(key, data, "output" if key in self.outputs else "intermediate", grad)
        if n in self.op_ids:
            self.edges.append({"from": self.op_ids[n], "to": vid})
        else:
            self.pending.setdefault(n, []).append(vid)
        return vid

    def _accumulating(self, n: Node, v: Value, always: bool) -> str | None:
        """The id of an AccumulateGrad node whose Value requires no grad (an engine of a
        student's: PyTorch gives such a Value none), drawn as an op fed by that Value, drawn as
        the constant it is: the node a gradient would reach, seen where PyTorch has none."""
        if n in self.op_ids:
            return self.op_ids[n]
        if n in self.left_out or not self._fits(1, always):
            self.left_out.add(n)
            self.left_out_ops.add(n)
            return None
        oid = self.op_ids[n] = self._new_id("f")
        self.nodes.append({"id": oid, "kind": "op", "op": self.reader.node_name(n), "freed": False, "saved": []})
        source = self._reach_value(v)
        if source is not None:
            self.edges.append({"from": source, "to": oid})
        self.input_ids[n] = (source,)
        return oid

    def _split_accumulators(self) -> None:
        """A leaf reached through more than one AccumulateGrad node (a student's engine that makes
        a new one at each use, where PyTorch keeps one per leaf) gets each of those nodes drawn as
        an op of its own between the leaf and the ops that reach it: one box for the leaf alone
        would show one node where the engine made several."""
        nodes: dict[Value, list[Node]] = {}
        for n, leaf in self.through.items():
            nodes.setdefault(leaf, []).append(n)
        for leaf, made in nodes.items():
            if len(made) < 2 or leaf not in self.value_ids or not self._fits(len(made)):
                continue
            for n in made:
                oid = self.op_ids[n] = self._new_id("f")
                self.nodes.append({"id": oid, "kind": "op", "op": self.reader.node_name(n), "freed": False,
                                   "saved": []})
                self.edges.append({"from": self.value_ids[leaf], "to": oid})
                self.input_ids[n] = (self.value_ids[leaf],)
                for edge in self.via.get(n, ()):
                    edge["from"] = oid

    def _add_named_constants(self) -> None:
        """Named values that need no grad and that no node kept: drawn apart, so the name is seen.

        ``next_functions`` holds None for them (PyTorch keeps no reference), so the
        picture cannot attach them; a student who named ``w`` still sees that it is
        outside the graph, which is the point of a value with ``requires_grad=False``.
        """
        for v in dict.fromkeys(self.names.values()):
            if self.reader.grad_fn(v) is None and v not in self.value_ids and not self.reader.value_requires_grad(v):
                if self._fits(1):
                    self.value_ids[v] = self._new_value(v, self.reader.value_data(v), "const", None)

    def _new_value(self, key: Key | None, data: float | None, role: str, grad: float | None) -> str:
        name = None if key is None else self.labels.get(key)
        vid = self._new_id("v")
        self.nodes.append({
            "id": vid, "kind": "value", "role": role, "name": None if name is None else _cut(name),
            "data": _number(data), "grad": _number(grad),
        })
        return vid

    def _new_id(self, prefix: str) -> str:
        """Ids in the order of the walk: the same graph always gives the same DOT source."""
        self.counts[prefix] += 1
        return f"{prefix}{self.counts[prefix] - 1}"

    def _add_op(self, n: Node) -> None:
        oid = self.op_ids[n] = self._new_id("f")
        self.nodes.append({
            "id": oid, "kind": "op", "op": self.reader.node_name(n), "freed": self.reader.node_freed(n),
            "saved": [{**s._asdict(), "data": _number(s.data)} for s in _drawn_saved(self.reader.node_saved(n))],
        })
        edge_from_omitted = False
        sources: list[str | None] = []
        for i, (m, nr) in enumerate(self.reader.node_edges(n)):  # in input order: the drawing keeps a left of b
            src = self._unpaired(m) if isinstance(m, Unpaired) else self._const(n, i) if m is None \
                else self._reach(m) if nr == 0 else self._reach_output(m, nr)
            sources.append(src)
            if src is not None:
                self.edges.append({"from": src, "to": oid})
                if nr == 0 and m is not None and not isinstance(m, Unpaired) and m in self.through:
                    self.via.setdefault(m, []).append(self.edges[-1])
            elif not edge_from_omitted:
                self.edges.append({"from": "omitted", "to": oid})
                edge_from_omitted = True
        self.edges.append({"from": oid, "to": self.value_ids[n]})
        self.edges += [{"from": oid, "to": vid} for vid in self.pending.pop(n, ())]
        self.input_ids[n] = tuple(sources)

    def _const(self, n: Node, i: int) -> str | None:
        """Input ``i`` of ``n``, which does not require grad: its data is known only if ``n`` saved it,
        or where the caller watched what ``n`` was made from (``operands``, one Value per input)."""
        item = self.reader.input_operand(n, i)
        given = self.operands.get(n, ())
        if item is None and i < len(given) == len(self.reader.node_inputs(n)):  # a student's node may
            item = given[i]  # hold fewer inputs than edges (next_functions a generator, used up)
        if isinstance(item, Value):
            return self._reach_value(item)
        if not self._fits(1):
            self.left_out_numbers += 1
            return None
        return self._new_value(None, item, "const", None)

    def _unpaired(self, entry: Unpaired) -> str | None:
        """An entry of a student's ``next_functions`` that is no (node, input_nr) pair, drawn as
        what it is (role ``bare`` for a node given without its input number, ``value_entry`` for
        a pair holding a Value where its node belongs, named as the caller named that Value, else
        ``unpaired``), with nothing below it: the walk goes on only through nodes, as PyTorch's does.
        One Value held by several entries (a leaf's edge to itself, in every op it is an input of)
        is one box, as its AccumulateGrad would be."""
        drawn = self.entries.get(id(entry.value)) if entry.value is not None else None
        if drawn is not None and drawn[0] is entry.value:
            return drawn[1]
        if not self._fits(1):
            self.left_out_numbers += 1
            return None
        vid = self._new_id("v")
        if entry.value is not None:
            self.entries[id(entry.value)] = (entry.value, vid)
        named = None if entry.value is None else self.labels.get(entry.value)
        role = "bare" if entry.node else "unpaired" if entry.value is None else "value_entry"
        self.nodes.append({"id": vid, "kind": "value", "role": role,
                           "name": _cut(named or entry.shown), "data": None, "grad": None})
        return vid

    # -- counting what was left out -------------------------------------------------------
    def _count_left_out(self) -> int:
        """How many nodes the drawing would have had beyond the cap (an op counts with its value)."""
        stack = list(self.left_out_ops)
        while stack:
            n = stack.pop()
            for i, m in enumerate(self.reader.node_inputs(n)):
                if m is None:
                    item = self.reader.input_operand(n, i)
                    if isinstance(item, Value):
                        self._leave_out(item)
                    else:
                        self.left_out_numbers += 1
                    continue
                leaf = self.reader.leaf_of(m)
                if leaf is not None and self.reader.value_requires_grad(leaf):
                    self._leave_out(leaf)
                elif self._leave_out(m):  # an op with its value (an AccumulateGrad: the constant below it)
                    self.left_out_ops.add(m)
                    stack.append(m)
        return self.left_out_numbers + sum(2 if k in self.left_out_ops else 1 for k in self.left_out)

    def _leave_out(self, key: Key) -> bool:
        """Count ``key`` as left out; False if it was drawn or counted already."""
        if key in self.value_ids or key in self.left_out:
            return False
        self.left_out.add(key)
        return True


def _cut(name: str) -> str:
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 3] + "..."


def _drawn_saved(items: list[internals.Saved]) -> list[internals.Saved]:
    """At most ``MAX_SAVED`` of an op's saved items: those changed in place first (what the drawing
    warns about), each group in slot order.  A layer's node can save hundreds, more than a label
    can show and than the schema takes from a child."""
    if len(items) <= MAX_SAVED:
        return items
    return sorted(items, key=lambda s: not is_stale(s))[:MAX_SAVED]
