"""Where each leaf's ``AccumulateGrad`` runs: right after the node that makes it ready (the last
of its consumers to run), and for leaves made ready together, in torch's heap order, replayed.

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
costs a few steps per leaf.  :func:`with_leaves` finds, for the nodes that make
three or more leaves ready, how many nodes wait in the queue, which needs one
extra walk over the graph's edges, made only when such a node exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

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


def with_leaves(ops: list[Node], last_feeder: dict[Node, Node | None], roots: Sequence[Node]) -> list[Node]:
    """The run order: ``ops`` (in the order they run) with each leaf's ``AccumulateGrad`` right after
    the node that makes it ready, ``last_feeder[leaf]`` (None: the start, torch's GraphRoot: first).

    ``roots`` are the backward's roots in order.  Usually each node makes at most one leaf ready:
    then nothing needs ordering, and no list is made per leaf (each would be one more object for
    the cyclic garbage collector, whose passes during backward walk the whole graph).
    """
    runs_after: dict[Node | None, Any] = dict(zip(last_feeder.values(), last_feeder))  # feeder: leaf
    several = len(runs_after) < len(last_feeder)
    if several:  # some node makes several leaves ready at once: a list of them, in torch's order
        runs_after = {}
        for leaf, feeder in last_feeder.items():
            runs_after.setdefault(feeder, []).append(leaf)
        _order_ties(runs_after, ops, roots)
    order: list[Node] = []
    add = order.extend if several else order.append
    if None in runs_after:
        add(runs_after[None])
    for node in ops:
        order.append(node)
        if node in runs_after:
            add(runs_after[node])
    return order


def _order_ties(runs_after: dict[Node | None, list[Node]], ops: list[Node], roots: Sequence[Node]) -> None:
    """Put each group of leaves that one node makes ready in torch's pop order, in place."""
    made_ready: dict[Node, Node | None] = {}
    waiting: dict[Node | None, int] = {}
    for feeder, group in runs_after.items():
        if len(group) == 1:
            continue
        edges = roots if feeder is None else feeder
        last = {node: i for i, node in enumerate(edges)}  # each node's last edge: where its count reaches 0
        group.sort(key=last.__getitem__)  # the order they are pushed in
        if len(group) > SAME_AS_PUSHED:  # the order they pop in depends on the other nodes in the queue
            if not waiting:
                made_ready = _op_feeders(ops)
                waiting = _waiting_counts(ops, made_ready)
            leaves = set(group)
            pushes = [n if n in leaves else _OP for n in sorted(last, key=last.__getitem__)
                      if n in leaves or n in made_ready and made_ready[n] is feeder]
            runs_after[feeder] = pop_order(waiting[feeder], pushes)


def _op_feeders(ops: list[Node]) -> dict[Node, Node | None]:
    """Each op's last feeder, the lowest-numbered op with an edge to it (None: only the start):
    ``ops`` are in the order they run, newest first, so the last one met."""
    made_ready: dict[Node, Node | None] = dict.fromkeys(ops)
    for node in ops:
        for nxt in node:
            if nxt in made_ready:
                made_ready[nxt] = node
    return made_ready


def _waiting_counts(ops: list[Node], made_ready: dict[Node, Node | None]) -> dict[Node | None, int]:
    """How many ops wait in the queue while each node runs (``ops`` in the order they run)."""
    ready_by: dict[Node | None, int] = {}
    for feeder in made_ready.values():
        ready_by[feeder] = ready_by.get(feeder, 0) + 1
    waiting: dict[Node | None, int] = {None: 0}
    queued = ready_by.get(None, 0)
    for node in ops:
        queued -= 1  # popped to run
        waiting[node] = queued
        queued += ready_by.get(node, 0)
    return waiting
