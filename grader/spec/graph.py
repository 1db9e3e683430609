"""The graph behind a Value as a GRAPH fact: its structure, in a form that ignores spelling.

Node ids and addresses differ between the submission's run and the reference's, and a
statement that says "y = a * b" allows ``b * a`` too.  So the graph is written out in a
canonical order: nodes numbered by a depth-first walk from the root, the inputs of a
commutative op (``AddBackward0``, ``MulBackward0``) sorted by a hash of what lies below them.
Two graphs built the same way give the same fact, whatever the operand order or the objects.

With ``flat=True`` (the default) a chain of additions, Python's ``sum`` and ``micrograph.sum``
all become one n-ary ``"Sum"`` node without its constant terms (``sum`` starts from 0): a
statement that does not pin the spelling accepts all three.  Pass ``flat=False`` when it does.

Each node: ``{"op": name, "in": [input index or None for a constant], "name": label or None,
"saved": "none" | "kept" | "freed"}``; a leaf's ``AccumulateGrad`` node has ``"leaf"``: the
name the probe gave it, or ``"?"`` for a leaf it did not name (one the student made).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

import micrograph
from micrograph.node import Node  # bound now, before the submission is imported
from micrograph.viz.internals import input_operand
from grader.spec.node_read import made_at, made_by_function, saved_state
from grader.spec.facts import (COMMUTATIVE, CONTEXT, DRAWN_AS, FACT, FLAT_SUM, LABEL, OWN_NODE, SUMS, UNNAMED,
                               Kind)
from grader.spec.probe import grad as grad_number
from grader.spec.probe import num, type_name

MAX_NODES = 2000
"""A graph larger than this is described by its size only (a runaway loop, not an answer)."""

ACCUMULATE = "torch::autograd::AccumulateGrad"
"""The name of a leaf's gradient-accumulating node, as torch's."""


class _Walk:
    """One canonical walk of the graph under a root."""

    def __init__(self, names: Mapping[str, Any], flat: bool, by_degree: bool = False,
                 data: Mapping[str, float] | None = None, drawn: Mapping[str, Any] | None = None,
                 detached: Mapping[int, str] | None = None) -> None:
        self.flat = flat
        self.drawn = {id(v): n for n, v in (drawn or {}).items()}  # leaves named in the drawing only
        # outputs of a node that makes several (a layer's entries), named in the drawing only: (node, nr) -> name
        self.outputs = {(id(v.grad_fn), v.output_nr): (n, num(v)) for n, v in (drawn or {}).items()
                        if isinstance(v, micrograph.Value) and v.grad_fn is not None}
        self.data = dict(data or {})  # the name of each Value the statement makes as data -> its number
        self.by_degree = by_degree  # unnamed leaves told apart by how many edges reach them
        self.detached = dict(detached or {})  # node id -> the named leaf its op took a detach() of
        # a Value under two names (w and x made one leaf) carries the first: the node that reads it
        # where the statement reads the second name's Value is where the graphs differ
        self.leaf_names = {id(v): n for n, v in reversed(names.items()) if isinstance(v, micrograph.Value)}
        self.node_names = {
            id(v.grad_fn): n for n, v in names.items()
            if isinstance(v, micrograph.Value) and v.grad_fn is not None
        }
        self.probe_made: dict[int, Any] = {}  # grad_fn id -> the Value it made (named ones, the root)
        self.parents: dict[int, int] = {}
        self.sigs: dict[int, str] = {}
        self.index: dict[int, int] = {}  # node id (and a leaf's own id) -> its place in the walk
        for v in names.values():
            self.knows(v)

    def knows(self, v: object, named: bool = True) -> None:
        """Keep the number ``v`` holds for the node that made it (drawn, never compared); a Value
        the probe did not name leaves a named one of that node in place."""
        if not isinstance(v, micrograph.Value) or v.grad_fn is None:
            return
        if named or (v.output_nr == 0 and id(v.grad_fn) not in self.probe_made):
            self.probe_made[id(v.grad_fn)] = v

    def places(self, names: Mapping[str, Any]) -> dict[str, int]:
        """Name -> the place in the walk of the node that made the Value the name holds (a
        leaf's AccumulateGrad), for each name whose Value the graph reaches.  Every name is
        kept, two that hold one Value too: the nodes carry one name each, and which Value a
        name holds is the judge's to compare with the place the statement's name has."""
        at = {}
        for n, v in names.items():
            key = id(v.grad_fn) if isinstance(v, micrograph.Value) and v.grad_fn is not None else id(v)
            if isinstance(v, micrograph.Value) and key in self.index:
                at[n] = self.index[key]
        return at

    def aliases(self, names: Mapping[str, Any], shown: set[Any]) -> list[str]:
        """Every name whose Value the graph reaches, ``shown`` being the names its nodes and
        leaves carry: a Value given two names (``x0 = x`` kept, then returned as both) carries
        only one of them, and the other is reached all the same."""
        return [n for n, v in names.items() if isinstance(v, micrograph.Value) and (
            self.node_names.get(id(v.grad_fn)) if v.grad_fn is not None
            else self.leaf_names.get(id(v))) in shown]

    def op(self, node: Any) -> str:
        name = node.name()
        if not made_by_function(node):
            return OWN_NODE + Node.name(node)
        return FLAT_SUM if self.flat and name in SUMS else name

    def leaf(self, node: Any) -> str:
        """The probe's name of the leaf, else the name of the statement's data holding its number
        (a Value made requiring grad where the statement makes data), else ``"?"``."""
        name = self.leaf_names.get(id(node.variable))
        if name is None:
            name = next((n for n, number in self.data.items() if num(node.variable) == number), UNNAMED)
        return name

    def inputs(self, node: Any, constants: bool = False) -> list[Any]:
        """The node's inputs (None for a constant); a flat sum absorbs unnamed sums below it and
        leaves its constant terms out (0 in Python's sum, 1 in w + 1: the data tells), but where
        ``constants`` (the drawing's inputs: every constant the engine recorded, as for any op)."""
        return [child for child, _ in self._edges(node, constants)]

    def output_nrs(self, node: Any) -> list[int]:
        """Which output of its node each input of the drawing's ``inputs(node, True)`` is (0 for a
        constant)."""
        return [nr for _, nr in self._edges(node, True)]

    def _edges(self, node: Any, constants: bool) -> list[tuple[Any, int]]:
        """The ``next_functions`` entries ``inputs`` reads, with a flat sum's merged."""
        if not (self.flat and node.name() in SUMS):
            return list(node.next_functions)
        merged: list[tuple[Any, int]] = []
        for child, nr in node.next_functions:
            if child is None:
                merged += [(None, 0)] if constants else []
            elif child.name() in SUMS and id(child) not in self.node_names and self.parents.get(id(child), 0) == 1:
                merged.extend(self._edges(child, constants))
            else:
                merged.append((child, nr))
        return merged

    def drawn_outputs(self, node: Any) -> dict[str, Any]:
        """The drawing's context for a node whose inputs include a later output of a node (``~nr``,
        per input as ``~in`` lists them) and for a node whose outputs were named (``~outputs``:
        [nr, name, number] each); nothing for any other node."""
        nrs = self.output_nrs(node)
        outs = [[nr, name, data] for (at, nr), (name, data) in self.outputs.items() if at == id(node)]
        return {**({CONTEXT + "nr": nrs} if any(nrs) else {}), **({CONTEXT + "outputs": outs} if outs else {})}

    def constants(self, node: Any) -> dict[str, Any]:
        """The drawing's context for the inputs of ``node`` that need no grad (``~const``: per None
        of ``inputs(node, True)``, in order, [name, number]), where the node saved what it was
        given there (a product saves its other factor) and still holds it: a named Value that
        requires no grad (``b = w.detach() + 1``) is then drawn as itself, named and with its
        number, not as a nameless constant.  Nothing where no constant is known."""
        if (self.flat and node.name() in SUMS) or not made_by_function(node):
            return {}
        told = []
        for i, (child, _) in enumerate(node.next_functions):
            if child is None:
                item = input_operand(node, i)
                is_value = isinstance(item, micrograph.Value)
                told.append([self.leaf_names.get(id(item), self.drawn.get(id(item))) if is_value else None,
                             num(item) if is_value or type(item) in (int, float) else None])
        return {CONTEXT + "const": told} if any(name or number is not None for name, number in told) else {}

    def count_parents(self, root: Any) -> int:
        """How many edges reach each node (a sum shared by two nodes is not merged); the size."""
        seen, stack = {id(root)}, [root]
        while stack and len(seen) <= MAX_NODES:
            for child, _ in stack.pop().next_functions:
                if child is None:
                    continue
                self.parents[id(child)] = self.parents.get(id(child), 0) + 1
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append(child)
        return len(seen)

    def sig(self, node: Any) -> str:
        """A hash of the subgraph below ``node`` (iterative: graphs may be deep)."""
        stack = [node]
        while stack:
            top = stack[-1]
            if id(top) in self.sigs:
                stack.pop()
                continue
            pending = [c for c in self.inputs(top) if c is not None and id(c) not in self.sigs]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            parts = ["const" if c is None else self.sigs[id(c)] for c in self.inputs(top)]
            if self.op(top) in COMMUTATIVE or self.op(top) == FLAT_SUM:
                parts.sort()
            label = self.leaf(top) if top.name() == ACCUMULATE else self.node_names.get(id(top), "")
            if self.by_degree and label == UNNAMED:
                label += str(self.parents.get(id(top), 0))
            text = "|".join([self.op(top), label, *parts])
            self.sigs[id(top)] = hashlib.sha1(text.encode()).hexdigest()[:16]
        return self.sigs[id(node)]

    def ordered(self, node: Any) -> list[Any]:
        children = self.inputs(node)
        if self.op(node) in COMMUTATIVE or self.op(node) == FLAT_SUM:
            return sorted(children, key=lambda c: "const" if c is None else self.sigs[id(c)])
        return children

    def nodes(self, root: Any) -> list[dict[str, Any]]:
        self.sig(root)
        index: dict[int, int] = {}
        order: list[Any] = []
        stack = [root]
        while stack:  # pre-order, inputs in canonical order
            node = stack.pop()
            if id(node) in index:
                continue
            index[id(node)] = len(order)
            if node.name() == ACCUMULATE:
                self.index[id(node.variable)] = len(order)
            order.append(node)
            stack.extend(c for c in reversed(self.ordered(node)) if c is not None)
        self.index.update(index)
        return _ranked([self.describe(node, index) for node in order])

    def describe(self, node: Any, index: dict[int, int]) -> dict[str, Any]:
        """A node as compared, with what the drawing of it shows as context (``~``): the op's
        name as the engine spells it, the number a named Value (or a leaf) holds, or else the
        number the node's forward produced (no variable need hold it), a leaf's .grad, and the
        inputs in the order the code gave them (drawn so, where ``in`` sorts a sum's or a
        product's)."""
        if node.name() == ACCUMULATE:
            leaf = node.variable
            shown = self.drawn.get(id(leaf))
            return {"op": "AccumulateGrad", "leaf": self.leaf(node),
                    CONTEXT + "data": num(leaf), CONTEXT + "grad": grad_number(leaf),
                    **({DRAWN_AS: shown} if shown is not None else {})}
        saved = saved_state(node)
        made = self.probe_made.get(id(node))
        return {
            "op": self.op(node),
            "in": [None if c is None else index[id(c)] for c in self.ordered(node)],
            CONTEXT + "in": [None if c is None else index[id(c)] for c in self.inputs(node, constants=True)],
            "name": self.node_names.get(id(node)),
            "saved": saved.value,
            CONTEXT + "op": node.name(),
            CONTEXT + "data": node.output_data() if made is None else num(made),
            **self.drawn_outputs(node),
            **self.constants(node),
            **({CONTEXT + "detached": self.detached[id(node)]} if id(node) in self.detached else {}),
            **made_at(node),
        }


def _ranked(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``nodes`` with each ``~made`` the rank of its node among those made (0: made first), not the
    engine's count, which runs on across calls: two calls that build alike give one fact."""
    key = CONTEXT + "made"
    rank = {made: k for k, made in enumerate(sorted({node[key] for node in nodes if key in node}))}
    for node in nodes:
        if key in node:
            node[key] = rank[node[key]]
    return nodes


def graph(root: object, names: Mapping[str, Any] | None = None, *, label: str,
          flat: bool = True, data: Mapping[str, float] | None = None,
          drawn: Mapping[str, Any] | None = None, held: Iterable[Any] = (),
          freeing: bool = True) -> dict[str, Any]:
    """The GRAPH fact of the graph behind ``root``.

    ``names`` maps a name to each Value the statement names (``{"w": w, "x": x, "a": a}``):
    leaves are then told apart by name (a leaf the probe did not name shows as ``"?"``) and
    named non-leaves label their node.  ``leaves`` lists the named leaves the graph reaches;
    ``~untracked`` the named Values that require no grad, of which no graph holds a node even
    when the root was computed from them.

    ``data`` maps a name to the number of each Value the statement makes as data (``Value(x)``,
    no grad) inside the code tested, where the probe cannot reach it: a leaf the probe did not
    name that holds that number is that Value, made requiring grad, and carries its name
    (listed in ``leaves`` and in ``~data``; no graph of the statement's has such a leaf).

    ``drawn`` names the outputs of a node that makes several (ex12's ``output[0][1]``) for the
    drawing only (``~outputs``), never compared.

    ``held`` gives Values the code tested made (``Call.probe_made``), unnamed: each node one of them is
    still the output of is drawn with the number that Value holds now, not the one its op produced
    (an in-place change under no_grad, or through ``.data``, keeps a Value's grad_fn).

    ``freeing=False`` makes whether a backward freed each node's saved values context
    (``saved_untold``): a statement that never says whether the graph is freed accepts the
    documents' ``backward(retain_graph=True)`` on a single pass.
    """
    if not freeing:
        return saved_untold(graph(root, names, label=label, flat=flat, data=data, drawn=drawn, held=held))
    names = dict(names or {})
    fact: dict[str, Any] = {FACT: Kind.GRAPH.value, LABEL: label}
    if not isinstance(root, micrograph.Value):
        return {**fact, "type": type_name(root), "nodes": [], "leaves": []}
    numbers = [n for n, v in names.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if numbers:  # a name returned as a number: which leaf it stands for is unknown (its VALUE fact tells)
        fact[CONTEXT + "numbers"] = numbers
    walk = _Walk(names, flat, data=data, drawn=drawn)
    walk.knows(root)
    for v in held:
        walk.knows(v, named=False)
    node = root.grad_fn
    if node is None:  # a leaf: its own AccumulateGrad if it requires grad, else nothing
        leaf = walk.leaf_names.get(id(root), UNNAMED)
        nodes = [{"op": "AccumulateGrad", "leaf": leaf}] if root.requires_grad else []
        return {**fact, "type": "Value", "nodes": nodes,
                "leaves": [leaf] if nodes and leaf != UNNAMED else []}
    return _below(walk, node, names, fact)


def graph_below(node: object, *, label: str, drawn: Mapping[str, Any] | None = None,
                leaves: Mapping[str, Any] | None = None, detached: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The GRAPH fact of the graph under ``node`` (a backward pass's root node: the Value it
    was made for need not be held), its leaves unnamed but those ``leaves`` names (the leaves
    the probe made and handed the code: ``(x + w) * (x + 1)`` is then not the statement's
    ``(x + w) * (w + 1)``, which it is with both unnamed); ``type`` None when there is no node.
    Whether a node's saved values were freed is context: the pass that ran through it decided
    (``retain_graph``), not how the graph was built.  With no names, two leaves under one sum
    are told apart by how many edges reach each (w in a = x + w and b = w + 1), so that the
    operands' order does not change the fact.  ``drawn`` names leaves for the drawing only
    (``~drawn_as``: ex12's weight[0][0] and input[0][0]), never compared: a student's code may
    build its leaves where the probe cannot name them.  ``detached`` (``CallRecords.detached_inputs``):
    the name of the leaf a node's op took a detach() of, by the node's id (``~detached``), never compared:
    the graph records that input as a constant, and the difference it makes is told with it."""
    fact: dict[str, Any] = {FACT: Kind.GRAPH.value, LABEL: label}
    if node is None:
        return {**fact, "type": None, "nodes": [], "leaves": []}
    walk = _Walk(leaves or {}, True, by_degree=True, drawn=drawn, detached=detached)
    return saved_untold(_below(walk, node, leaves or {}, fact))


def saved_untold(fact: dict[str, Any]) -> dict[str, Any]:
    """The GRAPH fact with each node's saved state (none, kept, freed) as context (``~saved``):
    drawn, never compared, where what the last pass through the graph freed is not what the
    test grades (its ``retain_graph`` was the student's to choose)."""
    saved = CONTEXT + "saved"
    nodes = fact.get("nodes", [])
    return {**fact, "nodes": [{(saved if k == "saved" else k): v for k, v in n.items()} for n in nodes]}


def _below(walk: _Walk, node: Any, names: Mapping[str, Any], fact: dict[str, Any]) -> dict[str, Any]:
    size = walk.count_parents(node)
    if size > MAX_NODES:
        return {**fact, "type": "Value", "nodes": [], "leaves": [], "too_big": True}
    nodes = walk.nodes(node)
    reached = {n["leaf"] for n in nodes if "leaf" in n}
    return {**fact, "type": "Value", "nodes": nodes,
            "leaves": [n for n in [*names, *walk.data] if n in reached],
            **({CONTEXT + "data": [n for n in walk.data if n in reached]} if walk.data else {}),
            CONTEXT + "named": walk.aliases(names, {n.get("name") for n in nodes} | reached),
            CONTEXT + "at": walk.places(names),
            CONTEXT + "untracked": [n for n, v in names.items()  # no graph ever records them
                                    if isinstance(v, micrograph.Value) and not v.requires_grad]}


def reaches_leaves(start: Any, leaves: tuple[Any, ...]) -> bool:
    """Whether a pass's graph (``start``, its ``observe.PassStart``) reaches every leaf: its
    AccumulateGrad node is among the nodes the pass may run, the roots and every node an edge
    points at."""
    nodes = [*start.dependencies, *(node for node, _ in start.roots)]
    reached = {id(node.variable) for node in nodes if node.name() == ACCUMULATE}
    return all(id(v) in reached for v in leaves)
