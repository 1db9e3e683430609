"""Whether a backward leaves the graph it walks as it was: PyTorch's backward releases what the
nodes saved, and nothing else; every node keeps its next_functions (the same pairs, in the same
order) and its sequence_nr, and a leaf keeps its one AccumulateGrad for the next graph built from it.

A backward that empties or reorders a node's edges, marks the nodes it ran in their
sequence_nr, or drops a leaf's AccumulateGrad gives the right gradients in its first pass; a
second backward through the graph, or a later graph of the leaf, is what goes wrong.  So the
graph is compared with itself, before and after one backward, and each change is named: ex17's
test tells it as claims (``kept_parts``), and ex17's gate (``graph_changed``) in every later
stage's file.  The same programs run on a module whose ``Value`` makes torch tensors (their
nodes have no ``sequence_nr``: None before and after, which holds).
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a claim or a finding, translated where told

from grader.spec.build_reads import edge_node
from grader.spec.held import held
from grader.spec.raised import error

MOST_NODES = 32  # the program's graph has six: a walk that finds more met a graph of the engine's own

EDGES = N_("after y.backward(), y = (x + w) * (w * 2), every node of y's graph has the next_functions it had before "
           "(the same (node, input_nr) pairs, in the same order)")
SEQUENCE = N_("after y.backward(), y = (x + w) * (w * 2), every node of y's graph has the sequence_nr it had before")
ACCUMULATOR = N_("w * 3, made after y.backward(), y = (x + w) * (w * 2), reaches w through the AccumulateGrad y's graph "
                 "reached it through")
# ex17's gate: the same three, told as what the file's backward changed
EDGES_CHANGED = N_("y.backward(), y = (x + w) * (w * 2), changes the next_functions of a node of y's graph (empties "
                   "them, or puts its pairs in another order), where backward leaves every node's edges as they were: "
                   "a second backward through the graph walks them again")
SEQUENCE_CHANGED = N_("y.backward(), y = (x + w) * (w * 2), changes the sequence_nr of a node of y's graph, where "
                      "backward leaves it as it was: a second backward through the graph orders its nodes by it again")
ACCUMULATOR_CHANGED = N_("w * 3, made after y.backward(), y = (x + w) * (w * 2), reaches w through another AccumulateGrad "
                         "than y's graph: backward drops the leaf's AccumulateGrad, which the leaf keeps for its whole "
                         "life")
FAULT_IN = {EDGES_CHANGED: "backward", SEQUENCE_CHANGED: "backward", ACCUMULATOR_CHANGED: "backward"}


def _pairs(node: object) -> list[tuple[object, object]] | None:
    """``node.next_functions`` as a list of (node, input_nr), or None when it is no tuple or list."""
    found = getattr(node, "next_functions", None)
    if type(found) not in (tuple, list):
        return None
    return [(pair[0], pair[1]) if type(pair) in (tuple, list) and len(pair) == 2 else (pair, None)
            for pair in list(found)[:16]]


def _nodes(root: object) -> list[object]:
    """The nodes reachable from ``root`` through next_functions, each once, at most MOST_NODES."""
    seen: list[object] = []
    stack = [root]
    while stack and len(seen) < MOST_NODES:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in _pairs(node) or [])
    return seen


def _same_pairs(before: list[tuple[object, object]] | None, after: list[tuple[object, object]] | None) -> bool:
    """The same nodes (by identity) and input numbers (ints compared), in the same order."""
    if before is None or after is None:
        return before is after
    return len(before) == len(after) and all(
        b[0] is a[0] and (b[1] is a[1] or (type(b[1]) is int and type(a[1]) is int and b[1] == a[1]))
        for b, a in zip(before, after))


def _same_number(before: object, after: object) -> bool:
    """The same sequence_nr: None both times (PyTorch's nodes show none), or equal ints."""
    return before is after or (type(before) is int and type(after) is int and before == after)


def _changes(sub: Any) -> tuple[bool, bool, bool] | None:
    """Whether one backward through y = (x + w) * (w * 2) left (edges, sequence numbers, w's
    AccumulateGrad) as they were; None when that backward raised (other programs tell it)."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-3.0, requires_grad=True)
    b = w * 2  # (w's AccumulateGrad, None): a sort of the pairs changes their order
    y = (x + w) * b
    held(y)
    nodes = _nodes(getattr(y, "grad_fn", None))
    pairs = [_pairs(node) for node in nodes]
    numbers = [getattr(node, "sequence_nr", None) for node in nodes]
    accumulator = edge_node(getattr(b, "grad_fn", None), 0)
    if error(y.backward) is not None:
        return None
    later = w * 3
    held(later)
    return (all(_same_pairs(p, _pairs(node)) for p, node in zip(pairs, nodes)),
            all(_same_number(n, getattr(node, "sequence_nr", None)) for n, node in zip(numbers, nodes)),
            accumulator is None or edge_node(getattr(later, "grad_fn", None), 0) is accumulator)


def kept_parts(sub: Any) -> list[tuple[bool, str]]:
    """ex17's test: each claim (``EDGES``, ``SEQUENCE``, ``ACCUMULATOR``) with whether it holds."""
    kept = _changes(sub) or (True, True, True)
    return list(zip(kept, (EDGES, SEQUENCE, ACCUMULATOR)))


def graph_changed(sub: Any) -> str | None:
    """ex17's gate (``build_backward_checks.backward_rest``): the first part of the graph the
    file's backward changed, or None."""
    kept = _changes(sub) or (True, True, True)
    return next((finding for held_, finding in zip(kept, (EDGES_CHANGED, SEQUENCE_CHANGED, ACCUMULATOR_CHANGED))
                 if not held_), None)
