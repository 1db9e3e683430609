"""The graphs ex10's hidden test of ``grad_fn_chain`` reads, none of them from the exercise: each one
a trap for a walk that leaves the statement's path (a None edge skipped or stopped at, a leaf met
early, an input picked by a set's order rather than by its place)."""

from __future__ import annotations

from micrograph import Value


def other_graphs() -> list[tuple[str, Value]]:
    """Graphs to read with grad_fn_chain, none of them from the exercise; in two of them a
    node's first input is data (a None edge) and its second leads on: the walk must skip the
    None, not stop at it.  In one a clamp's three inputs are data twice (its number and its min,
    None edges, as in torch) and an operation (its max): the walk must skip every None, not
    only the first.  In two others a node's first input is a leaf and its second an
    operation: the walk stops at the leaf, not going on down the operation.  The last eight are
    four pairs of graphs whose roots take the same two input nodes in the two orders: a set
    orders two nodes by their ids, the same way in both graphs of a pair (bar a rare clash of
    hash slots), so a walk that picks an input by a set's order, not by its place, leaves the
    statement's path in one graph of each pair; four pairs of other nodes keep a clash from
    hiding it."""
    w = Value(0.5, requires_grad=True)
    c = Value(3.0)  # data: its edge is None
    return [*_one_way(w, c), *_both_ways(w)]


def _both_ways(w: Value) -> list[tuple[str, Value]]:
    """The four pairs of ``other_graphs``: two of operations, two of a leaf and an operation."""
    s, q, a, b, m, x = w.sin(), w * w, w.tanh(), w.sigmoid(), w * 2, w.exp()
    return [("(w.sin() * (w * w)).exp()", (s * q).exp()), ("((w * w) * w.sin()).exp()", (q * s).exp()),
            ("(w.tanh() - w.sigmoid()).relu()", (a - b).relu()), ("(w.sigmoid() - w.tanh()).relu()", (b - a).relu()),
            ("(w + w * 2).sigmoid()", (w + m).sigmoid()), ("(w * 2 + w).sigmoid()", (m + w).sigmoid()),
            ("(w.exp() * w).sin()", (x * w).sin()), ("(w * w.exp()).sin()", (w * x).sin())]


def _one_way(w: Value, c: Value) -> list[tuple[str, Value]]:
    """The first ten graphs of ``other_graphs``."""
    return [
        ("((w * 2).exp() + 1).tanh()", ((w * 2).exp() + 1).tanh()),
        ("c - w", c - w),
        ("(c + w) * (w + 1)", (c + w) * (w + 1)),
        ("((w - c).sigmoid() * c).relu()", ((w - c).sigmoid() * c).relu()),
        ("(c * (w + 1)).exp()", (c * (w + 1)).exp()),
        ("(c - w.tanh()).sin()", (c - w.tanh()).sin()),
        ("w * (w + 1)", w * (w + 1)),
        ("(w + (c * w).exp()).tanh()", (w + (c * w).exp()).tanh()),
        ("c.clamp(c, w * 2).exp()", c.clamp(c, w * 2).exp()),
        ("w", w),
    ]
