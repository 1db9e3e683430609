"""ex13 backprop_by_hand: tests for a hand-written topological order and backward pass.

The probes build their own graphs (the diamond, the documents' graph, seeded random graphs, a
chain of 3,000 ops (public) and one of 100,000, a graph with a node no gradient reaches), judge the order with their own
walk (``_order_report``), read the returned gradients by leaf identity, count the calls of
``local_grads`` per node, check that no ``.grad`` changed, and count the engine's backward
passes (``_engine_watched``, through ``micrograph.observe.passes``, which sees a pass however it
was started): a backprop that calls backward or micrograph.grad, even one that puts every
``.grad`` back afterwards, has not written backward by hand.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, Callable, Iterator

import micrograph
from micrograph import Function, Value, observe

from grader.spec import Exercise, Limits
from grader.spec.probe import grad, num, show

EXERCISE = Exercise(
    "ex13", "Backpropagation by hand: topological order and the chain rule",
    module="ex13_backprop_by_hand", limits=Limits(time=45),  # the 100,000-op chain, on a loaded machine
)

CHAIN_LINKS = 50_000  # each link is two ops: v = v * c, then v = v + x
SHORT_LINKS = 1_500  # 3,000 ops: deeper than Python's recursion limit, quick to walk
RANDOM_SEEDS = (101, 202, 303, 404, 505)

BY_HAND = ("the exercise is to write backward yourself: backprop must not call backward, "
           "micrograph.grad or anything else that runs the engine's backward pass, even if it "
           "puts every .grad back; pass the gradients on with local_grads")
UNTOUCHED = "backprop must leave every .grad alone: return the gradients in a dict"


# -- graphs ----------------------------------------------------------------------------------
def _diamond(a: float) -> tuple[Value, list[Value]]:
    leaf = Value(a, requires_grad=True)
    b = leaf + leaf
    return b * b, [leaf]


def _documents(w: float, x: float) -> tuple[Value, list[Value]]:
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    return micrograph.mul(micrograph.add(xl, wl), micrograph.add(wl, 1)), [wl, xl]


def _random_graph(seed: int) -> tuple[Value, list[Value]]:
    """Ops drawn at random over a growing pool, with reuse (shared nodes), a leaf that needs
    no grad and one that is never used; magnitudes stay moderate."""
    rng = random.Random(seed)
    leaves = [Value(rng.uniform(-2.0, 2.0), requires_grad=True) for _ in range(4)]
    leaves += [Value(rng.uniform(-2.0, 2.0)), Value(0.5, requires_grad=True)]
    pool = leaves[:5]
    ops: list[Callable[[Value, Value], Value]] = [
        lambda a, b: a + b,
        lambda a, b: a - b,
        lambda a, b: a * b.tanh(),
        lambda a, b: a / (b * b + 1.0),
        lambda a, b: a.tanh(),
        lambda a, b: a.sin() * 2.0,
        lambda a, b: 1.5 - a.sigmoid(),
        lambda a, b: (a * a + 1.0).log(),
        lambda a, b: a.tanh().exp() * b,
        lambda a, b: a.tanh() ** 2,
    ]
    for _ in range(30):
        op = rng.choice(ops)
        pool.append(op(rng.choice(pool), rng.choice(pool)))
    return micrograph.sum(pool[-8:]) + leaves[0], leaves


def _chain(links: int = CHAIN_LINKS, w: float = 0.75, x: float = -0.125) -> tuple[Value, list[Value]]:
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    v = wl
    for _ in range(links):
        v = v * 0.99999
        v = v + xl
    return v, [wl, xl]


class _Stop(Function):
    """Passes no gradient back (backward returns None): the nodes behind it get nothing."""

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, g):
        return None


def _blocked(w: float, x: float) -> tuple[Value, list[Value]]:
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    return _Stop.apply(wl * xl) + xl * 3.0, [wl, xl]


# -- observing --------------------------------------------------------------------------------
def _reachable(root: Value) -> set[int]:
    """The ids of every node reachable from root.grad_fn (the probe's own walk, no recursion)."""
    seen = {id(root.grad_fn)}
    stack = [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return seen


def _order_report(order: object, root: Value) -> dict[str, Any] | str:
    """Whether ``order`` is a topological order of root's graph, judged node by node."""
    if type(order) is not list:
        return f"not a list: {type(order).__name__}"
    if not all(isinstance(n, micrograph.Node) for n in order):
        return "not a list of graph nodes"
    position: dict[int, int] = {}
    for i, node in enumerate(order):
        position.setdefault(id(node), i)
    parents_first = all(
        position[id(child)] > position[id(node)]
        for node in order
        for child, _ in node.next_functions
        if child is not None and id(child) in position
    )
    return {
        "starts_at_root": bool(order) and order[0] is root.grad_fn,
        "each_once": len(position) == len(order),
        "complete": set(position) == _reachable(root),
        "parents_first": parents_first,
    }


def _leaf_grads(result: object, leaves: list[Value]) -> dict[str, Any] | str:
    """The returned gradient of each leaf (found by identity, never by ==), and stray keys."""
    if type(result) is not dict:
        return f"not a dict: {type(result).__name__}"
    items = list(result.items())
    found = [next((num(g) for k, g in items if k is leaf), None) for leaf in leaves]
    stray = sum(1 for k, _ in items if not any(k is leaf for leaf in leaves))
    return {"grads": found, "other_keys": stray}


@contextlib.contextmanager
def _engine_watched() -> Iterator[list[int]]:
    """Count the engine's backward / grad passes started inside the block: the list gets the
    count when the block ends (``micrograph.observe.passes()`` counts every pass, whichever
    name, alias or import started it)."""
    started = observe.passes()
    counted: list[int] = []
    try:
        yield counted
    finally:
        counted.append(observe.passes() - started)


def _backprop(sub, graph: tuple[Value, list[Value]]) -> dict[str, Any]:
    """backprop on a graph: the gradients, whether every .grad was left alone, and whether it
    ran the engine's backward pass."""
    root, leaves = graph
    with _engine_watched() as passes:
        result = sub.backprop(root)  # an error is the student's own, told with its line
    return {
        "grads": _leaf_grads(result, leaves),
        "grads_untouched": all(grad(leaf) is None for leaf in leaves),
        "used_engine_backward": passes[0] > 0,
    }


def _side_by_side(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several ``_backprop`` observations: per-graph gradients, and the checks once."""
    return {
        "grads": [r["grads"] for r in results],
        "grads_untouched": all(r["grads_untouched"] for r in results),
        "used_engine_backward": any(r["used_engine_backward"] for r in results),
    }


@contextlib.contextmanager
def _counted(sub) -> Iterator[dict[int, int]]:
    """Count the submission's calls of local_grads, per node."""
    calls: dict[int, int] = {}
    original = sub.local_grads

    def counting(node, g):
        calls[id(node)] = calls.get(id(node), 0) + 1
        return original(node, g)

    sub.local_grads = counting
    try:
        yield calls
    finally:
        sub.local_grads = original


# -- tests ------------------------------------------------------------------------------------
@EXERCISE.test(
    "the diamond b = a + a, c = b * b",
    points=2,
    public=True,
    feedback="Visit the nodes in topological order; at each node add up everything that "
    "reached it before passing it on with local_grads.",
    key_feedback={
        "grads": "b's node is reached twice (c = b * b uses b twice): add both gradients "
        "before it runs, and key the answer by the leaf Value (node.variable)",
        "grads_untouched": UNTOUCHED,
        "used_engine_backward": BY_HAND,
    },
)
def diamond(sub):
    results = [_backprop(sub, _diamond(a)) for a in (0.5, -2.0, 3.25)]
    results += [_backprop(sub, _documents(w, x)) for w, x in ((0.5, -3.0), (2.0, 4.0))]
    return _side_by_side(results)


ORDER_ADVICE = {
    "list_of_nodes": "return a list of the graph's nodes: root.grad_fn and the nodes reached "
    "through next_functions",
    "starts_at_root": "root.grad_fn comes first in the order",
    "each_once": "each node appears once, even a node reached along several paths",
    "complete": "every node reachable from root.grad_fn appears, AccumulateGrad nodes included",
    "parents_first": "a node comes only after every node whose next_functions lead to it (every "
    "node that feeds gradient into it): count incoming edges, then Kahn's algorithm",
}


def _orders(sub, graphs: list[tuple[Value, list[Value]]]) -> dict[str, list[Any]]:
    """``_order_report`` on each graph, one key per property, so the feedback names the one
    that fails."""
    reports = [_order_report(sub.topological_order(root), root) for root, _ in graphs]
    out: dict[str, list[Any]] = {"list_of_nodes": [r if type(r) is str else True for r in reports]}
    for key in ("starts_at_root", "each_once", "complete", "parents_first"):
        out[key] = [r[key] if type(r) is dict else None for r in reports]
    return out


@EXERCISE.test(
    "topological order of the diamond",
    points=1,
    public=True,
    feedback="List every node reachable from root.grad_fn once, root.grad_fn first, each node "
    "before the nodes in its next_functions (count incoming edges, then Kahn's algorithm).",
    key_feedback=ORDER_ADVICE,
)
def order_diamond(sub):
    return _orders(sub, [_diamond(1.5), _documents(0.5, -3.0)])


@EXERCISE.test(
    "topological order of random graphs",
    points=2,
    feedback="A node may appear only after every node that feeds gradient into it, and every "
    "node reachable from root.grad_fn appears once, AccumulateGrad nodes included.",
    key_feedback=ORDER_ADVICE,
)
def order_random(sub):
    return _orders(sub, [_random_graph(seed) for seed in RANDOM_SEEDS])


@EXERCISE.test(
    "gradients on random graphs match backward",
    points=3,
    feedback="Start at root.grad_fn with d root / d root = 1, add up the gradients arriving at each node, pass "
    "them on with local_grads (skipping None nodes and None gradients), and return only the "
    "leaves a gradient reached.",
    key_feedback={"grads_untouched": UNTOUCHED, "used_engine_backward": BY_HAND},
)
def grads_random(sub):
    return _side_by_side([_backprop(sub, _random_graph(seed)) for seed in RANDOM_SEEDS])


RUNS_ONCE = ("Call local_grads once per node, after all of its gradient has arrived, not once "
             "per path: walking every path repeats shared nodes (and grows exponentially).")


def _runs(sub, graphs: list[tuple[Value, list[Value]]]) -> dict[str, Any]:
    """How many nodes backprop ran local_grads on, and the most runs of one node, per graph."""
    runs, engine = [], False
    for root, _ in graphs:
        with _counted(sub) as calls, _engine_watched() as passes:
            sub.backprop(root)
        runs.append({"nodes_run": len(calls), "most_runs": max(calls.values(), default=0)})
        engine = engine or passes[0] > 0
    return {"runs": runs, "used_engine_backward": engine}


@EXERCISE.test("each node of the diamond runs once", points=1, public=True, feedback=RUNS_ONCE,
               key_feedback={"used_engine_backward": BY_HAND})
def runs_once_public(sub):
    return _runs(sub, [_diamond(0.75), _documents(-1.5, 2.5)])


@EXERCISE.test("each node runs once", points=2, feedback=RUNS_ONCE,
               key_feedback={"used_engine_backward": BY_HAND})
def runs_once(sub):
    return _runs(sub, [_diamond(-1.25), _documents(2.0, 4.0)]
                 + [_random_graph(s) for s in RANDOM_SEEDS[:3]])


BLOCKED = ("local_grads may return None for an input (here a custom Function passes no "
           "gradient back): skip it, skip the nodes nothing reached, and leave such leaves out.")


def _blocked_report(sub, inputs: tuple[tuple[float, float], ...]) -> dict[str, Any]:
    observed = _side_by_side([_backprop(sub, _blocked(w, x)) for w, x in inputs])
    return {key: observed[key] for key in ("grads", "used_engine_backward")}


@EXERCISE.test("a node no gradient reaches, on one graph", points=1, public=True,
               feedback=BLOCKED, key_feedback={"used_engine_backward": BY_HAND})
def blocked_public(sub):
    return _blocked_report(sub, ((-0.5, 3.0),))


@EXERCISE.test("a node no gradient reaches is skipped", points=1, feedback=BLOCKED,
               key_feedback={"used_engine_backward": BY_HAND})
def blocked(sub):
    return _blocked_report(sub, ((1.5, -2.0), (0.25, 4.0)))


CHAIN_FEEDBACK = {
    "order": "the chain's order must be topological too: x's AccumulateGrad comes after all "
    "the additions that use x",
    "grads": "x is used once per link of the chain: its gradient is the sum of every contribution",
    "grads_untouched": UNTOUCHED,
    "used_engine_backward": BY_HAND,
}
CHAIN_ADVICE = ("Walk the chain like any graph: in topological order, adding every gradient that "
                "reaches a node, without recursion (Python stops at about 1000 nested calls: "
                "walk with an explicit stack, a list you append to and pop from).")


def _walk_chain(sub, graph: tuple[Value, list[Value]]) -> dict[str, Any]:
    """topological_order and backprop on a long chain: the order, the gradients, whether .grad
    stayed alone and whether the engine ran.  A recursive walk raises RecursionError here: the
    student's own error, told with its line."""
    root, leaves = graph
    report = _order_report(sub.topological_order(root), root)
    with _engine_watched() as passes:
        result = sub.backprop(root)
    return {
        "order": report,
        "grads": _leaf_grads(result, leaves),
        "grads_untouched": all(grad(leaf) is None for leaf in leaves),
        "used_engine_backward": passes[0] > 0,
    }


@EXERCISE.test("a chain of 3,000 ops", points=1, public=True, feedback=CHAIN_ADVICE,
               key_feedback=CHAIN_FEEDBACK)
def short_chain(sub):
    return _walk_chain(sub, _chain(SHORT_LINKS, -0.5, 0.375))


@EXERCISE.test("a chain of 100,000 ops", points=2, feedback=CHAIN_ADVICE,
               key_feedback=CHAIN_FEEDBACK)
def deep_chain(sub):
    return _walk_chain(sub, _chain())


@EXERCISE.diagram
def draw(sub):
    root, (w, x) = _documents(0.5, -3.0)
    names = {"w": w, "x": x, "y": root}
    show([root], names)  # drawn as built if backprop fails
    sub.backprop(root)
    return [root], names
