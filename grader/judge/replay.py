"""The numbers of a graph the child reported, recomputed by the parent's own engine.

A GRAPH fact (``grader.spec.graph``) carries, beside the structure it is compared by, the
number each node held (``~data``) and each leaf's ``.grad`` (``~grad``). Those numbers come
from the child, where the submission runs; the parent does not take them on trust: it builds
the graph again with its own ``micrograph`` from the leaves' numbers and the nodes' ops, and
recomputes

* each node's number from its inputs' (an op with a constant input whose number the fact does
  not carry, and a flattened sum that may have dropped one, cannot be recomputed: unknown);
* each leaf's gradient, by one ``backward()`` from the root (when every node can be rebuilt:
  a constant term of a sum is the one thing recovered from the node's number, and a sum's
  gradient does not depend on it);
* and, in the dict holding the graph, the VALUE facts named like a node and the GRAD facts of a
  named leaf (``w.grad``) are tied to those numbers.

A reference graph's numbers need not follow from one backward (passes accumulate, .data is
written on purpose), so the judgement is relative: where the reference's numbers agree with its
replay and the submission's graph is compared equal, the submission's numbers must agree with
theirs too (``unexplained``). Otherwise they are not what the engine's operations make: a
number changed through ``.data`` afterwards, or a fact the child did not get from the engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import micrograph
from grader.judge.compare import same
from grader.spec.facts import CONTEXT, FACT, FLAT_SUM, LABEL, UNNAMED, Kind

MAX_REPLAYED = 300
"""Graphs with more nodes are not replayed (ex13's long chains): what replaying costs the parent
stays a small part of a submission's grading."""

OPS: dict[str, Callable[..., Any]] = {
    "AddBackward0": micrograph.add, "SubBackward0": micrograph.sub, "MulBackward0": micrograph.mul,
    "DivBackward0": micrograph.div, "NegBackward0": micrograph.neg, "ExpBackward0": micrograph.exp,
    "TanhBackward0": micrograph.tanh, "LogBackward0": micrograph.log,
    "SigmoidBackward0": micrograph.sigmoid, "ReluBackward0": micrograph.relu,
    "SinBackward0": micrograph.sin, "CosBackward0": micrograph.cos, "SqrtBackward0": micrograph.sqrt,
    "PowBackward1": lambda base, exponent: base ** exponent,
}
"""The ops whose output is a function of their inputs alone (no constant argument of their own)."""
SUMS = frozenset({FLAT_SUM, "AddBackward0", "SumBackward0"})
ACCUMULATE = "AccumulateGrad"
DATA, GRAD = CONTEXT + "data", CONTEXT + "grad"


class Replayed(NamedTuple):
    """What the replay of one GRAPH fact found (True: agrees, False: differs, None: unknown)."""

    data: tuple[bool | None, ...]  # per node: its number is what its op makes of its inputs'
    grads: dict[str, bool | None]  # per named leaf: its .grad is what one backward from the root gives
    numbers: dict[str, float]  # each name's number in the graph (named nodes and leaves)
    leaf_grads: dict[str, Any]  # each named leaf's .grad as the fact says


def _number(x: object) -> float | None:
    return float(x) if type(x) in (int, float) else None


def _agrees(claimed: object, made: float) -> bool:
    return type(claimed) in (int, float) and (same(made, claimed) or (math.isinf(made) and made == claimed))


def _local(node: dict[str, Any], nodes: list[dict[str, Any]]) -> bool | None:
    """Whether ``node``'s number is what its op makes of its inputs' numbers (None: unknown)."""
    op, inputs, claimed = node.get("op"), node.get("in"), _number(node.get(DATA))
    if op == ACCUMULATE or claimed is None or type(inputs) is not list:
        return None
    numbers = [None if i is None else _number(nodes[i].get(DATA)) for i in inputs]
    if any(n is None for n in numbers):
        return None  # a constant the fact does not carry
    values = [micrograph.Value(n) for n in numbers]
    if op in SUMS:
        made = micrograph.sum(values).item() if values else 0.0
        return True if _agrees(claimed, made) else None  # a dropped constant term is no mistake
    if op not in OPS:
        return None
    try:
        made = OPS[op](*values).item()
    except (ArithmeticError, ValueError, TypeError):
        return None
    return _agrees(claimed, made)


class _Rebuilt:
    """The graph built again by the parent's engine, node by node (None: it cannot be)."""

    def __init__(self, nodes: list[dict[str, Any]]) -> None:
        self.nodes = nodes
        self.values: dict[int, Any] = {}
        self.leaves: dict[str, Any] = {}

    def build(self, root: int) -> Any:
        """The root's Value, built bottom-up without recursion; None if some node cannot be."""
        stack, entered = [root], set()
        while stack:
            i = stack[-1]
            if i in self.values:
                stack.pop()
                continue
            inputs = [j for j in self.nodes[i].get("in") or [] if j is not None and j not in self.values]
            if inputs and i in entered:
                return None  # a cycle: no engine builds one
            if inputs:
                entered.add(i)
                stack.extend(inputs)
                continue
            stack.pop()
            made = self._node(self.nodes[i])
            if made is None:
                return None
            self.values[i] = made
        return self.values[root]

    def _node(self, node: dict[str, Any]) -> Any:
        op, claimed = node.get("op"), _number(node.get(DATA))
        if op == ACCUMULATE:
            if claimed is None:
                return None
            leaf = micrograph.Value(claimed, requires_grad=True)
            if node.get("leaf") not in (None, UNNAMED):
                self.leaves[str(node["leaf"])] = leaf
            return leaf
        inputs = [None if j is None else self.values[j] for j in node.get("in") or []]
        if op in SUMS:
            known = [v for v in inputs if v is not None]
            if claimed is None or not known:
                return None
            total = micrograph.sum(known)
            return total + (claimed - total.item())  # the constant terms: a sum's gradient ignores them
        if op not in OPS or any(v is None for v in inputs):
            return None
        try:
            return OPS[op](*inputs)
        except (ArithmeticError, ValueError, TypeError):
            return None


def _grads(nodes: list[dict[str, Any]]) -> dict[str, bool | None]:
    """Per named leaf: whether its ``.grad`` is what one backward from the root gives."""
    rebuilt = _Rebuilt(nodes)
    root = rebuilt.build(0)
    if root is None or not rebuilt.leaves:
        return {}
    try:
        root.backward()
    except (RuntimeError, ArithmeticError, ValueError):
        return {}
    out: dict[str, bool | None] = {}
    for node in nodes:
        name, claimed = node.get("leaf"), node.get(GRAD)
        leaf = rebuilt.leaves.get(str(name))
        if leaf is None or claimed is None:
            continue
        made = leaf.grad
        out[str(name)] = None if made is None else _agrees(claimed, made.item())
    return out


def replay(fact: dict[str, Any]) -> Replayed:
    """The replay of one GRAPH fact (nothing known for one too big, or not a graph)."""
    nodes = fact.get("nodes")
    if type(nodes) is not list or not nodes or len(nodes) > MAX_REPLAYED or not all(type(n) is dict for n in nodes):
        return Replayed((), {}, {}, {})
    if not all(type(i) is int and 0 <= i < len(nodes) for n in nodes for i in n.get("in") or [] if i is not None):
        return Replayed((), {}, {}, {})
    numbers = {str(n.get("name") or n.get("leaf")): n[DATA] for n in nodes
               if n.get("name") or n.get("leaf") not in (None, UNNAMED) if _number(n.get(DATA)) is not None}
    leaf_grads = {str(n["leaf"]): n.get(GRAD) for n in nodes if n.get("leaf") not in (None, UNNAMED)}
    return Replayed(tuple(_local(n, nodes) for n in nodes), _grads(nodes), numbers, leaf_grads)


def _items(container: Any) -> list[Any]:
    return list(container.values()) if type(container) is dict else container if type(container) is list else []


def _facts(observation: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every dict or list of an observation that holds a GRAPH fact as one of its items, with
    the keys that lead to it."""
    items = _items(observation)
    if any(_is(item, Kind.GRAPH) for item in items):
        yield path, observation
    keys = observation.keys() if type(observation) is dict else range(len(items))
    for key, item in zip(keys, items):
        if type(item) in (dict, list) and not _is(item, Kind.GRAPH):
            yield from _facts(item, (*path, key))


def _at(observation: Any, path: tuple[Any, ...]) -> Any:
    """What ``path`` leads to in an observation (None where it leads nowhere)."""
    for key in path:
        if type(observation) is dict and type(key) is str:
            observation = observation.get(key)
        elif type(observation) is list and type(key) is int and key < len(observation):
            observation = observation[key]
        else:
            return None
    return observation


def _is(x: object, kind: Kind) -> bool:
    return type(x) is dict and x.get(FACT) == kind.value


def _siblings(holder: Any, kind: Kind) -> Iterator[dict[str, Any]]:
    """The facts of ``kind`` among ``holder``'s items and in its lists, one level down."""
    for value in _items(holder):
        for item in value if type(value) is list else [value]:
            if _is(item, kind):
                yield item


def _ties(holder: Any, graph: Replayed) -> dict[str, bool]:
    """Whether each VALUE fact named like a node, and each GRAD fact of a named leaf, in the dict
    holding the graph, says the number the graph holds."""
    out = {}
    for fact in _siblings(holder, Kind.VALUE):
        label = str(fact.get(LABEL))
        if label in graph.numbers and _number(fact.get("data")) is not None:
            out[f"value {label}"] = same(fact["data"], graph.numbers[label])
    for fact in _siblings(holder, Kind.GRAD):
        leaf = str(fact.get(LABEL)).removesuffix(".grad")
        if leaf in graph.leaf_grads and fact.get("by") == "backward":
            out[f"grad {leaf}"] = same(fact.get("grad"), graph.leaf_grads[leaf])
    return out


class _Site(NamedTuple):
    """Where a reference observation holds graphs whose numbers its replay vouches for."""

    path: tuple[Any, ...]
    graphs: tuple[tuple[int, Replayed], ...]  # the graph's place among the holder's items, its replay
    ties: tuple[dict[str, bool], ...]  # per graph, the facts tied to it (``_ties``)


_PLANS: dict[int, tuple[Any, tuple[_Site, ...]]] = {}
"""Each reference observation's sites, worked out once: every submission is held to the same
reference, and most observations hold no graph (kept with the observation, so an id is never
reused)."""


def _plan(want: Any) -> tuple[_Site, ...]:
    known = _PLANS.get(id(want))
    if known is not None and known[0] is want:
        return known[1]
    sites = []
    for path, holder in _facts(want):
        graphs = tuple((i, replay(item)) for i, item in enumerate(_items(holder)) if _is(item, Kind.GRAPH))
        ties = tuple(_ties(holder, mine) for _, mine in graphs)
        if any(True in mine.data or True in mine.grads.values() for _, mine in graphs) or any(
                True in tied.values() for tied in ties):
            sites.append(_Site(path, graphs, ties))
    _PLANS[id(want)] = (want, tuple(sites))
    return tuple(sites)


def unexplained(want: Any, got: Any) -> list[str]:
    """The labels of the submission's graph numbers (or of the facts tied to them) that its own
    graph does not make, where the reference's graph makes the reference's: empty when every
    number the reference can vouch for, the submission's graph vouches for too."""
    found: list[str] = []
    for site in _plan(want):
        other = _at(got, site.path)
        items = _items(other)
        for (i, mine), tied in zip(site.graphs, site.ties):
            its_fact = items[i] if i < len(items) else None
            if not _is(its_fact, Kind.GRAPH):
                continue
            its = replay(its_fact)
            label, nodes = str(its_fact.get(LABEL)), its_fact["nodes"]
            found += [f"{label}: {_node_label(nodes[j])}" for j, ok in enumerate(mine.data)
                      if ok is True and j < len(its.data) and its.data[j] is False]
            found += [f"{label}: {leaf}.grad" for leaf, ok in mine.grads.items()
                      if ok is True and its.grads.get(leaf) is False]
            theirs = _ties(other, its)
            found += [f"{label}: {tie}" for tie, ok in tied.items() if ok and theirs.get(tie) is False]
    return found


def _node_label(node: dict[str, Any]) -> str:
    return str(node.get("name") or node.get("leaf") or node.get(CONTEXT + "op") or node.get("op"))
