"""The order in which leaves made ready together are accumulated: torch's heap, replayed.

Every ``AccumulateGrad`` has the same priority in torch's ready queue (the
highest), so when one node makes several leaves ready at once, the queue's
binary heap (``std::priority_queue``: ``push_heap`` and ``pop_heap`` of
libstdc++) decides their order, and the leaf hooks fire in that order.  It is
the order they were pushed in for up to two leaves, but not always for three or
more: where each new leaf lands in the heap depends on how many other nodes are
waiting in the queue at that moment, and on the nodes pushed between the leaves.

Only those positions matter, never the other nodes' priorities: in a heap a leaf
(the highest priority) is never below another node, so the leaves form a
subtree at the top and every other node is an interchangeable "op" below it.
:func:`pop_order` replays the pushes and pops on that two-kind picture, which
costs a few steps per leaf.  :func:`runs_after` finds, for the nodes that make
three or more leaves ready, how many nodes wait in the queue, which needs one
extra walk over the graph's edges, made only when such a node exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from micrograph.node import Node

_OP = None  # a heap slot holding a node other than an AccumulateGrad
SAME_AS_PUSHED = 2  # up to this many leaves pop in the order they were pushed, whatever waits


def pop_order(waiting: int, pushes: Sequence[Node | None]) -> list[Node]:
    """The leaves among ``pushes`` in the order torch's heap pops them.

    ``waiting`` nodes were in the queue before; ``pushes`` are pushed in order,
    each a leaf's ``AccumulateGrad`` or ``None`` for any other node.
    """
    heap: list[Node | None] = [_OP] * waiting
    for item in pushes:
        hole = len(heap)
        heap.append(item)
        if item is not _OP:  # push_heap: up past every op (a strictly lower priority), never past a leaf
            while hole > 0 and heap[(hole - 1) // 2] is _OP:
                parent = (hole - 1) // 2
                heap[hole] = heap[parent]
                hole = parent
            heap[hole] = item
    popped: list[Node] = []
    while heap and heap[0] is not _OP:
        popped.append(heap[0])  # type: ignore[arg-type]
        _pop_top(heap)
    return popped


def _pop_top(heap: list[Node | None]) -> None:
    """libstdc++'s ``pop_heap``: the last slot's item refills the top's hole sifted down.

    The hole follows the higher child, the right one on a tie (two leaves); once both children
    are ops the rest of the walk moves only ops, and the refill ends up where the hole is.
    """
    last = heap.pop()
    size = len(heap)
    if not size:
        return
    hole = 0
    while True:
        right = 2 * hole + 2
        if right < size and heap[right] is not _OP:
            child = right
        elif right - 1 < size and heap[right - 1] is not _OP:
            child = right - 1
        else:
            break
        heap[hole] = heap[child]
        hole = child
    heap[hole] = last


def runs_after(last_feeder: dict[Node, Node | None], ops: set[Node],
               roots: Sequence[Node]) -> dict[Node | None, list[Node]]:
    """The leaves each node makes ready (``None``: the start, torch's GraphRoot), in torch's pop order.

    ``last_feeder`` maps each leaf's ``AccumulateGrad`` to the node it becomes ready at; ``ops``
    are the other nodes that will run, ``roots`` the backward's roots in order.
    """
    groups: dict[Node | None, list[Node]] = {}
    for leaf, feeder in last_feeder.items():
        groups.setdefault(feeder, []).append(leaf)
    _order_ties(groups, ops, roots)
    return groups


def _order_ties(runs_after: dict[Node | None, list[Node]], ops: set[Node], roots: Sequence[Node]) -> None:
    """Put each group of leaves that one node makes ready in torch's pop order, in place."""
    big = [feeder for feeder, group in runs_after.items() if len(group) > SAME_AS_PUSHED]
    for feeder, group in runs_after.items():
        if len(group) > 1 and feeder not in big:
            edges = roots if feeder is None else feeder
            group.sort(key=lambda leaf: _last_index(edges, leaf))
    if not big:
        return
    made_ready = _op_feeders(ops)
    waiting = _waiting_counts(ops, made_ready, set(big))
    for feeder in big:
        edges = roots if feeder is None else feeder
        leaves = set(runs_after[feeder])
        pushes: list[Node | None] = []
        for i, nxt in enumerate(edges):
            if nxt is None or _last_index(edges, nxt) != i:
                continue
            if nxt in leaves:
                pushes.append(nxt)
            elif nxt in ops and made_ready.get(nxt) is feeder:
                pushes.append(_OP)
        runs_after[feeder] = pop_order(waiting[feeder], pushes)


def _last_index(edges: Sequence[Node | None], node: Node) -> int:
    """The edge at which ``node``'s dependency count reaches 0 (its last edge from this feeder)."""
    return max(i for i, n in enumerate(edges) if n is node)


def _op_feeders(ops: set[Node]) -> dict[Node, Node | None]:
    """Each op's last feeder, the lowest-numbered op with an edge to it (None: only the start)."""
    made_ready: dict[Node, Node | None] = dict.fromkeys(ops)
    for node in ops:
        for nxt in node:
            if nxt in made_ready:
                last = made_ready[nxt]
                if last is None or last._seq > node._seq:
                    made_ready[nxt] = node
    return made_ready


def _waiting_counts(ops: set[Node], made_ready: dict[Node, Node | None],
                    feeders: set[Node | None]) -> dict[Node | None, int]:
    """How many ops wait in the queue while each of ``feeders`` runs (ops run newest first)."""
    ready_by: dict[Node | None, int] = {}
    for op, feeder in made_ready.items():
        ready_by[feeder] = ready_by.get(feeder, 0) + 1
    waiting: dict[Node | None, int] = {None: 0}
    queued = ready_by.get(None, 0)
    for node in sorted(ops, key=lambda n: n._seq, reverse=True):
        queued -= 1  # popped to run
        if node in feeders:
            waiting[node] = queued
        queued += ready_by.get(node, 0)
    return waiting
