"""ex13 backprop_by_hand: tests for a hand-written topological order and backward pass.

The probes build their own graphs (``grader.spec.backprop_graphs``: the diamond, the documents' graph, seeded
random graphs, chains of 1,200 ops, a graph with a node no gradient reaches), judge the order property by property
(``grader.spec.topological.order_report``), read the gradients by leaf identity and their type, record the calls
of ``local_grads`` (how many per node, and whether the gradients that met at a node were added up:
``grader.spec.arrivals``; and whether it is the one given: ``grader.spec.given``), check that no ``.grad`` changed,
count the engine's passes (``micrograph.observe.passes`` sees a pass however it was started) and, on small graphs,
watch for calls into the engine's own walk.  Both functions are also called apart (``grader.spec.backprop_apart``):
on another graph in between, on a root changed in place, on a graph at a freed graph's ids, against a fresh import.
"""

from __future__ import annotations

import contextlib
from sys import getrecursionlimit  # bound now: a submission may rebind sys's names (seal.SYS)
from typing import Any, Iterator, NamedTuple

from micrograph import Value, observe

from grader.spec import Exercise, Limits
from grader.spec.arrivals import held_not_added, lists_twice, orders_returned, past_the_first_leaf, recorded, seeded, summed
from grader.spec.backprop_apart import backprop_apart, backprop_at_a_freed_id, order_apart, order_grown
from grader.spec.backprop_graphs import (Graph, blocked_graph, chain_graph, diamond_graph, documents_graph,
                                         equal_leaves_graph, named, random_graph, times_zero_graph)
from grader.spec.by_name import ByName, kept_by_name
from grader.spec.facts import CONTEXT, Check
from grader.spec.given import given_returns, local_grads as given_local_grads
from grader.spec.leaf_entries import leaves_apart
from grader.spec.graph_state import graph_state_told
from grader.spec.probe import DEFAULT_RECURSION_LIMIT, default_recursion_limit, grad, num, show, type_name
from grader.spec.provenance import check, entry_of, float_of, result_of, watching
from grader.spec.recursion import nesting, not_recursive
from grader.spec.root_walk import past_the_root
from grader.spec.shadowed import told_if_shadowed, value_why
from grader.spec.order_probes import drops_leaves, names_apart
from grader.spec.topological import order_report
from grader.spec.unreached import skipped_unreached

EXERCISE = Exercise(
    "ex13", "Backpropagation by hand: topological order and the chain rule",
    module="ex13_backprop_by_hand", limits=Limits(time=20),  # a 20,000-op chain, on a loaded machine
)

# Two ops a link (v = v * c, v = v + x).  The hidden chain is walked at Python's default recursion
# limit, whatever the submission set when imported: 1,200 ops nest a recursive walk (a call per
# node) deeper than the 1,000 calls it allows.  A submission that raises the limit while its walk
# runs walks 20,000 ops too, where a recursive walk then meets the limit it set; a limit beyond
# them is not chased (a recursive walk nests past ``recursion.DEEP`` on 1,200 ops all the same:
# NOT_RECURSIVE tells it), and neither is one the fresh import of ``order_apart`` sets at the top.
SHORT_LINKS, RAISED_LINKS = 600, 10_000
RANDOM_SEEDS = (101, 202, 303, 404, 505)


# -- observing --------------------------------------------------------------------------------
_MISSING = object()  # a leaf the answer has no entry for


def _leaf_grads(result: object, leaves: list[Value], names: tuple[str, ...], graph: str, calls: list[Any],
                by_name: bool = False, why: dict[str, Any] | None = None) -> dict[str, Any]:
    """The returned gradient of each leaf (found by identity, never by ==) and its type (the
    statement asks for a float, not a Value), whether every key is one of the graph's leaves,
    and whether two leaves of one number got an entry each (not judged ``by_name``: a walk that
    keeps gradients by node name merges leaves of any number, told by ``summed``).  A dict of a
    subclass (a defaultdict) is a dict: only its entries are read.  ``why``: where a number is no
    float, what made it a Value (``grader.spec.shadowed.value_why``), beside its type."""
    label = f"backprop({graph})"
    if not isinstance(result, dict):
        return {"answer": result_of(f"not a dict: {type_name(result)}", label)}
    items = list(dict.items(result))  # a dict's own items: a subclass's (a defaultdict) inserts no key
    found = [next((g for k, g in items if k is leaf), _MISSING) for leaf in leaves]
    stray = sum(1 for k, _ in items if not any(k is leaf for leaf in leaves))
    return {
        "answer": [entry_of(None if g is _MISSING else num(g), label, name, g is not _MISSING)
                   for g, name in zip(found, names)],
        # by leaf: an entry only one side has, or None, is told by "answer" (its type by neither)
        "floats": {name: {**float_of(g, f"{label}[{name}]"), **((why or {}) if type(g) is not float else {})}
                   for g, name in zip(found, names) if g is not _MISSING and g is not None},
        "keys": check(Check.KEYED_BY_LEAVES, stray == 0, label),
        "filled": check(Check.SOME_ENTRY, bool(items), label),  # an empty dict: every leaf's entry missing
        "apart": check(Check.LEAVES_APART, True, label) if by_name else leaves_apart(items, leaves, names, label, calls),
    }


@contextlib.contextmanager
def _engine_watched() -> Iterator[list[int]]:
    """The engine's passes started in the block (any name, alias or import), when it ends."""
    started = observe.passes()
    counted: list[int] = []
    try:
        yield counted
    finally:
        counted.append(observe.passes() - started)


HELD_GRAD = 2.5  # the .grad each graph's first leaf is given before backprop runs


class _Ran(NamedTuple):
    """One call of backprop on a graph, as the probe saw it."""

    graph: Graph
    result: object
    calls: list[Any]  # local_grads's calls
    orders: list[Any]  # what backprop's topological_order calls returned
    given_kept: dict[str, Any]
    untouched: bool  # every .grad left as it was
    engine: bool  # the engine's backward pass ran
    by_name: ByName | None  # gradients kept by node name (``kept_by_name``)
    why: dict[str, Any]  # what made a number of the answer a Value (``value_why``)


def _ran(sub, graph: Graph) -> _Ran:
    """backprop on a graph, its first leaf holding a .grad before the call (a walk that clears or sets .grad shows)."""
    held = graph.leaves[0].grad = Value(HELD_GRAD)
    with _engine_watched() as passes, given_returns(sub, "local_grads", given_local_grads) as kept, \
            recorded(sub) as calls, orders_returned(sub) as orders, told_if_shadowed(sub, "backprop"):
        result = sub.backprop(graph.root)  # an error is the student's own, told with its line (and a built-in's import)
    untouched = graph.leaves[0].grad is held and held.item() == HELD_GRAD and all(
        grad(leaf) is None for leaf in graph.leaves[1:])
    return _Ran(graph, result, calls, orders, kept.fact, untouched, passes[0] > 0, kept_by_name(calls, result, orders),
                value_why(sub, calls, graph.root))


def _backprop(sub, graph: Graph) -> dict[str, Any]:
    return _reported(_ran(sub, graph))


def _both(ran: _Ran) -> tuple[bool, dict[str, Any], dict[str, Any] | None]:
    """Whether ``ran`` shows gradients kept by node name plainly; its report; and, where it shows
    them only among leaves of one number, its report as by name too (``_reported``)."""
    plain = ran.by_name is not None and ran.by_name.plain
    return plain, _reported(ran), _reported(ran, True) if ran.by_name is not None and not plain else None


def _reported(ran: _Ran, by_name_elsewhere: bool = False) -> dict[str, Any]:
    """What backprop did on a graph: the gradients, the walk's seed, whether every .grad was left
    alone, whether it ran the engine's backward pass, and whether the given local_grads was.
    Gradients kept by node name seen only among leaves of one number are told as such where
    another graph of the same test shows them plainly (``by_name_elsewhere``), else as leaves
    found by number."""
    graph, calls, orders, result = ran.graph, ran.calls, ran.orders, ran.result
    label = f"backprop({graph.label})"
    name = ran.by_name.name if ran.by_name is not None and (ran.by_name.plain or by_name_elsewhere) else None
    return {  # by name: leaves merged, nodes passed over as their name's entry was used, told by "sums"
        "grads": {"given_kept": ran.given_kept,
                  **_leaf_grads(result, graph.leaves, graph.names, graph.label, calls, name is not None, ran.why),
                  "sums": summed(calls, result, label, orders, list(zip(graph.leaves, graph.names)), name, (graph.leaves[0], HELD_GRAD)),
                  "held": held_not_added(calls, result, graph.leaves[0], HELD_GRAD, f"{label}[{graph.names[0]}]"),  # read, added
                  "seed": seeded(calls, graph.root, "backprop"), "unreached": skipped_unreached(calls, label, result, orders),
                  "past_root": past_the_root(calls, graph.root, result, "backprop", orders),
                  "past_leaf": check(Check.PAST_FIRST_LEAF, True, label) if name is not None else past_the_first_leaf(calls, result, label, orders)},
        "grads_untouched": ran.untouched,
        "used_engine_backward": ran.engine,
    }


def _own_pass(untouched: bool | None, engine: bool) -> dict[str, Any]:
    """CHECK facts of backprop's calls: .grad left alone (None: not seen), no engine pass."""
    facts = {"used_engine_backward": check(Check.NO_ENGINE_PASS, not engine, "backprop")}
    return facts if untouched is None else {
        **facts, "grads_untouched": check(Check.GRADS_UNTOUCHED, untouched, "backprop")}


def _side_by_side(sub, graphs: list[Graph], walk: bool = False) -> dict[str, Any]:
    """``_backprop`` on several graphs: per-graph gradients, and the checks once; with
    ``walk``, also whether backprop called the engine's own walk (small graphs only: watching
    every call costs time)."""
    with contextlib.ExitStack() as stack:
        call = stack.enter_context(watching(sub, "backprop", engine_walk=True)) if walk else None
        # each call's report made as it returns (a later call may change what it returned), and where
        # its gradients kept by name show only among leaves of one number, its report as by name too
        runs = [_both(_ran(sub, g)) for g in named(graphs)]  # each call let go of once reported (ids reused as before)
    plain = any(seen for seen, _, _ in runs)
    results = [by_name if plain and by_name else report for _, report, by_name in runs]
    observed = {
        "grads": [r["grads"] for r in results],
        **_own_pass(all(r["grads_untouched"] for r in results),
                    any(r["used_engine_backward"] for r in results)),
    }
    return {**observed, "own_walk": call.fact} if call is not None else observed


# -- tests ------------------------------------------------------------------------------------
_STATE_ON_GRAPHS = graph_state_told(("topological_order", "backprop"))
"""Every test's calls: an error on a graph an earlier call set attributes on is told with that call."""
OWN = "write the walk yourself: an explicit stack or queue over next_functions, and local_grads for each node"
# backprop(root) calls topological_order; public probes name public tests only (their data ships)
WITH_ORDER_PUBLIC = {"topological_order": ("topological order of the diamond",)}
WITH_ORDER = {"topological_order": ("topological order of the diamond", "topological order of random graphs")}
ORDER = ("List every node reachable from root.grad_fn once, root.grad_fn first, each node "
         "before the nodes in its next_functions: count the edges into each node, then Kahn's "
         "algorithm.")


@EXERCISE.test(
    "the diamond b = a + a, c = b * b", points=2, public=True,
    feedback="Visit the nodes in topological order; at each node add up everything that "
    "reached it before passing it on with local_grads.",
    key_feedback={
        "grads": "b's node is reached twice (c = b * b uses b twice): add both gradients "
        "before it runs, and key the answer by the leaf Value (node.variable)",
        "own_walk": OWN,
    }, runs_with=WITH_ORDER_PUBLIC,
)
@_STATE_ON_GRAPHS
def diamond(sub):
    graphs = [diamond_graph(a) for a in (0.5, -2.0, 3.25)]
    graphs += [documents_graph(w, x) for w, x in ((0.5, -3.0), (2.0, 4.0))]
    return {**_side_by_side(sub, graphs, walk=True), "apart": backprop_apart(sub, graphs[0], graphs[3])}


def _orders(sub, graphs: list[Graph]) -> dict[str, Any]:
    """``grader.spec.topological.order_report`` on each graph: a CHECK fact per property, so the feedback says which
    one the student's order breaks, and on which graph; and whether topological_order called
    the engine's own backward pass (a function of ``micrograph/engine.py``) instead of being one."""
    with watching(sub, "topological_order", engine_walk=True) as call:
        orders = [_as_returned(sub.topological_order(g.root)) for g in graphs]
    apart, drops = names_apart(sub), drops_leaves(sub)
    reports = [order_report(order, g.root, f"topological_order({g.label})", apart, drops)
               for order, g in zip(orders, named(graphs))]
    return {"order": reports, "own_walk": call.fact}


def _as_returned(order: object) -> object:
    """A list returned, copied as the call returned it: one list kept at module level and refilled
    by a later call is judged on what this call put in it (the state probes tell the sharing)."""
    return list(order) if type(order) in (list, tuple) else order


@EXERCISE.test("topological order of the diamond", points=1, public=True, feedback=ORDER)
@_STATE_ON_GRAPHS
def orderdiamond_graph(sub):
    graphs = [diamond_graph(1.5), documents_graph(0.5, -3.0)]
    return {**_orders(sub, graphs), "apart": order_apart(sub, *graphs) + [order_grown(sub, 1.25, -0.5)]}


@EXERCISE.test("topological order of random graphs", points=2, feedback=ORDER)
@_STATE_ON_GRAPHS
def order_random(sub):
    graphs = [random_graph(seed) for seed in RANDOM_SEEDS]
    return {**_orders(sub, graphs), "apart": order_apart(sub, graphs[0], graphs[1]) + [order_grown(sub, -2.0, 0.75)]}


@EXERCISE.test(
    "gradients on random graphs match backward", points=3,
    feedback="Start at root.grad_fn with d root / d root = 1, add up the gradients arriving at each node, pass "
    "them on with local_grads (skipping None nodes and None gradients), and return only the "
    "leaves a gradient reached.",
    key_feedback={"own_walk": OWN}, runs_with=WITH_ORDER,
)
@_STATE_ON_GRAPHS
def grads_random(sub):
    graphs = [random_graph(seed) for seed in RANDOM_SEEDS] + [equal_leaves_graph()]
    return {**_side_by_side(sub, graphs, walk=True), "apart": backprop_apart(sub, graphs[0], graphs[-1]),
            "at_a_freed_id": backprop_at_a_freed_id(sub)}


RUNS_ONCE = ("Call local_grads once per node, after all of its gradient has arrived, not once "
             "per path: walking every path repeats shared nodes (and grows exponentially).")


def _runs(sub, graphs: list[Graph]) -> dict[str, Any]:
    """Whether backprop ran local_grads on as many nodes as the reference, and at most once
    on each, per graph."""
    runs, engine = [], False
    for g in named(graphs):
        with recorded(sub) as calls, _engine_watched() as passes, orders_returned(sub) as orders, told_if_shadowed(sub, "backprop"):
            answer = sub.backprop(g.root)
        per_node: dict[Any, int] = {}  # nodes hash by identity
        for node, _, _ in calls:
            per_node[node] = per_node.get(node, 0) + 1
        once = max(per_node.values(), default=0) <= 1
        runs.append([{**result_of(len(per_node), f"the number of nodes backprop({g.label}) ran local_grads on"),
                      CONTEXT + "nodes_run": True},  # told as fewer or more
                     {**check(Check.RUNS_ONCE, once, f"backprop({g.label})"),
                      CONTEXT + "listed_twice": not once and lists_twice(orders)}, check(Check.CALLS_LOCAL_GRADS, bool(per_node), "backprop"),
                     past_the_root(calls, g.root, answer, "backprop", orders)])
        engine = engine or passes[0] > 0
    return {**_own_pass(None, engine), "runs": runs}  # the engine's own pass, a cause, told first


@EXERCISE.test("each node of the diamond runs once", points=1, public=True, feedback=RUNS_ONCE,
               runs_with=WITH_ORDER_PUBLIC)
@_STATE_ON_GRAPHS
def runs_once_public(sub):
    return _runs(sub, [diamond_graph(0.75), documents_graph(-1.5, 2.5)])


@EXERCISE.test("each node runs once", points=2, feedback=RUNS_ONCE, runs_with=WITH_ORDER)
@_STATE_ON_GRAPHS
def runs_once(sub):
    return _runs(sub, [diamond_graph(-1.25), documents_graph(2.0, 4.0)]
                 + [random_graph(s) for s in RANDOM_SEEDS[:3]])


BLOCKED = ("local_grads may return None for an input (here a custom Function passes no "
           "gradient back): skip it, skip the nodes nothing reached, and leave such leaves out.")


def _blocked_report(sub, inputs: tuple[tuple[float, float], ...], zero: tuple[Graph, ...] = ()
                    ) -> dict[str, Any]:
    """backprop on blocked graphs (and ``zero``: graphs a gradient of 0 reaches, which is not
    none reaching them)."""
    observed = _side_by_side(sub, [*(blocked_graph(w, x) for w, x in inputs), *zero])
    return {key: observed[key] for key in ("grads", "used_engine_backward")}


@EXERCISE.test("a node no gradient reaches, on one graph", points=1, public=True,
               feedback=BLOCKED, runs_with=WITH_ORDER_PUBLIC)
@_STATE_ON_GRAPHS
def blocked_public(sub):
    return _blocked_report(sub, ((-0.5, 3.0),))


@EXERCISE.test("a node no gradient reaches is skipped", points=1, feedback=BLOCKED,
               runs_with=WITH_ORDER)
@_STATE_ON_GRAPHS
def blocked(sub):
    return _blocked_report(sub, ((1.5, -2.0), (0.25, 4.0)), (times_zero_graph(-0.75, 2.5),))


CHAIN_FEEDBACK = {
    "order": "the chain's order must be topological too: x's AccumulateGrad comes after all "
    "the additions that use x",
    "grads": "x is used once per link of the chain: its gradient is the sum of every contribution",
}
CHAIN_ADVICE = ("Walk the chain like any graph: in topological order, adding every gradient that "
                "reaches a node, without recursion (Python stops at about 1000 nested calls: "
                "walk with an explicit stack, a list you append to and pop from).")


def _walkchain_graph(sub, graph: Graph) -> dict[str, Any]:
    """topological_order and backprop on a long chain: the order, the gradients, whether .grad
    stayed alone and whether the engine ran.  A recursive walk raises RecursionError here: the
    student's own error, told with its line.  backprop walks the chain topological_order has
    walked already: nodes kept from one call to the next (a module-level set) show as state."""
    with nesting(sub) as in_order:
        order = _as_returned(sub.topological_order(graph.root))
    report = order_report(order, graph.root, "topological_order(chain)", names_apart(sub), drops_leaves(sub))
    with nesting(sub) as in_backprop:
        observed = _backprop(sub, graph)
    return {"order": report, "grads": observed["grads"],
            "recursion": [not_recursive(in_order, "topological_order"), not_recursive(in_backprop, "backprop")],
            **_own_pass(observed["grads_untouched"], observed["used_engine_backward"])}


@EXERCISE.test("a chain of 1,200 ops", points=1, public=True, feedback=CHAIN_ADVICE,
               key_feedback=CHAIN_FEEDBACK, runs_with=WITH_ORDER_PUBLIC)
@_STATE_ON_GRAPHS
def shortchain_graph(sub):
    graph = chain_graph(SHORT_LINKS, -0.5, 0.375)
    return {**_walkchain_graph(sub, graph), "apart": order_apart(sub, graph, diamond_graph(1.5))}


@EXERCISE.test("a chain of 1,200 ops at the default recursion limit", points=2,
               feedback=CHAIN_ADVICE, key_feedback=CHAIN_FEEDBACK, runs_with=WITH_ORDER)
@_STATE_ON_GRAPHS
def deepchain_graph(sub):
    graph = chain_graph(SHORT_LINKS, 0.75, -0.125)
    with default_recursion_limit():
        observed = _walkchain_graph(sub, graph)
        limit = getrecursionlimit()  # the limit the walks set (before the fresh import's top-level code runs)
        observed["apart"] = order_apart(sub, graph, diamond_graph(1.5))
    if DEFAULT_RECURSION_LIMIT < limit < 2 * RAISED_LINKS:  # a recursive walk raises its RecursionError here
        _walkchain_graph(sub, chain_graph(RAISED_LINKS, 0.75, -0.125))  # (its numbers: the chain's above)
    return observed


@EXERCISE.diagram
def draw(sub):
    root, (w, x), _, _ = documents_graph(0.5, -3.0)
    names = {"w": w, "x": x, "y": root}
    show([root], names)  # drawn as built if backprop fails
    with told_if_shadowed(sub, "backprop"):  # an error in micrograph's abs: told with the import that bound it
        sub.backprop(root)
    return [root], names
