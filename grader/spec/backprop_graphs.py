"""The graphs ex13's probes hand to backprop and topological_order, built in the child.

Each builder makes a new graph and returns it with its leaves and the names the feedback gives
them.  They live apart from ex13's tests so that the tests read as what they judge, and the
graphs as the cases they cover: shared nodes (the diamond), the documents' graph, seeded random
graphs, two leaves of one number, a long chain, a node no gradient reaches and a gradient of
exactly 0.
"""

from __future__ import annotations

import functools
import random
from typing import Callable, NamedTuple, TypeVar

import micrograph
from micrograph import Function, Value


_BUILT: list["Graph"] = []
"""Every graph built in this run, alive to its end: no later graph's root takes the id() of an
earlier one's.  CPython gives a new object a freed one's id on one run and not on the next, so an
answer keyed by ``id(root)`` met a stale entry by chance, and its score changed from run to run;
``inputs_again.grown_apart`` sees such a cache on purpose instead."""

Built = TypeVar("Built", bound=Callable[..., "Graph"])


def _kept(build: Built) -> Built:
    """``build``, whose every graph joins ``_BUILT``, built with grad mode on whatever mode an
    earlier call of the student's code left: a mode left off is told by that call's own fact,
    not by an error the student's walk meets on a graph the probe built without its nodes."""
    @functools.wraps(build)
    def kept(*args: float) -> Graph:
        with micrograph.enable_grad():
            graph = build(*args)
        _BUILT.append(graph)
        return graph
    return kept  # type: ignore[return-value]


class Graph(NamedTuple):
    """A graph the probe built: its root, its leaves, their names and the graph's name, as
    the feedback names them, like code (``backprop(diamond_b)[a]``), in any language."""

    root: Value
    leaves: list[Value]
    names: tuple[str, ...]
    label: str


@_kept
def diamond_graph(a: float) -> Graph:
    leaf = Value(a, requires_grad=True)
    b = leaf + leaf
    return Graph(b * b, [leaf], ("a",), "diamond")


@_kept
def documents_graph(w: float, x: float) -> Graph:
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    root = micrograph.mul(micrograph.add(xl, wl), micrograph.add(wl, 1))
    return Graph(root, [wl, xl], ("w", "x"), "documents")


@_kept
def random_graph(seed: int) -> Graph:
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
    names = tuple("pqrstu")  # leaves named by letters: a digit could read as an answer
    return Graph(micrograph.sum(pool[-8:]) + leaves[0], leaves, names, "random")


@_kept
def equal_leaves_graph() -> Graph:
    """``u * v + v`` with two leaves of one number: a leaf found by ``==`` (true for equal
    numbers) instead of by identity merges them into one answer."""
    u, v = Value(1.75, requires_grad=True), Value(1.75, requires_grad=True)
    return Graph(micrograph.add(micrograph.mul(u, v), v), [u, v], ("u", "v"), "equal_leaves")


@_kept
def chain_graph(links: int, w: float, x: float) -> Graph:
    """``v = v * c + x``: ``c`` one constant Value, the graph and gradients of a number (a
    MulBackward0 with a None edge) without wrapping a number again for each product."""
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    c = Value(0.99999)
    v = wl
    for _ in range(links):
        v = v * c
        v = v + xl
    return Graph(v, [wl, xl], ("w", "x"), "chain")


class _Stop(Function):
    """Passes no gradient back (backward returns None): the nodes behind it get nothing."""

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, g):
        return None


@_kept
def blocked_graph(w: float, x: float) -> Graph:
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    return Graph(_Stop.apply(wl * xl) + xl * 3.0, [wl, xl], ("w", "x"), "blocked")


@_kept
def times_zero_graph(w: float, x: float) -> Graph:
    """``(w * x) * 0 + x``: a gradient of exactly 0 reaches the product's node and w, which
    ``backward`` still runs and writes (w.grad 0): a walk that skips a node whose gradient is
    falsy (``if not grads.get(node)``) instead of one nothing reached leaves w out."""
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    return Graph(micrograph.add(micrograph.mul(micrograph.mul(wl, xl), 0.0), xl), [wl, xl], ("w", "x"),
                 "times_zero")


LETTERS = "abcdefg"


def named(graphs: list[Graph]) -> list[Graph]:
    """The graphs with their names made distinct by a letter: diamond_a, diamond_b (no digits:
    a feedback never holds a number that could be an answer)."""
    labels = [g.label for g in graphs]
    return [g._replace(label=f"{g.label}_{LETTERS[labels[:i].count(g.label)]}")
            if labels.count(g.label) > 1 else g for i, g in enumerate(graphs)]
