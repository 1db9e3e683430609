"""``ready_queue.pop_order`` replays torch's heap on a two-kind picture (leaf / other node).

The check here is the full heap: libstdc++'s ``push_heap``/``pop_heap`` on real
priorities (a leaf's is the highest, the others' distinct and random), after a
random history of pushes and pops, must pop the leaves in the same order.
"""

from __future__ import annotations

import random

from micrograph.ready_queue import pop_order

LEAF = float("inf")


def _push(heap: list[tuple[float, object]], item: tuple[float, object]) -> None:
    heap.append(item)
    hole = len(heap) - 1
    while hole > 0 and heap[(hole - 1) // 2][0] < item[0]:
        heap[hole] = heap[(hole - 1) // 2]
        hole = (hole - 1) // 2
    heap[hole] = item


def _pop(heap: list[tuple[float, object]]) -> tuple[float, object]:
    """libstdc++ ``__pop_heap`` + ``__adjust_heap``, line by line."""
    top, value = heap[0], heap.pop()
    n = len(heap)
    if not n:
        return top
    hole = child = 0
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if heap[child][0] < heap[child - 1][0]:
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    while hole > 0 and heap[(hole - 1) // 2][0] < value[0]:
        heap[hole] = heap[(hole - 1) // 2]
        hole = (hole - 1) // 2
    heap[hole] = value
    return top


def test_pop_order_is_the_full_heaps_order() -> None:
    rng = random.Random(16)
    for _ in range(3000):
        heap: list[tuple[float, object]] = []
        for _ in range(rng.randrange(40)):  # a history that leaves ops in some heap shape
            _push(heap, (rng.random(), None))
            if heap and rng.random() < 0.3:
                _pop(heap)
        waiting = len(heap)
        pushes: list[object] = []
        for i in range(rng.randrange(1, 14)):
            leaf = rng.random() < 0.7
            item = object() if leaf else None
            pushes.append(item)
            _push(heap, (LEAF, item) if leaf else (rng.random(), None))
        expected = []
        while heap and heap[0][0] == LEAF:
            expected.append(_pop(heap)[1])
        assert pop_order(waiting, pushes) == expected  # type: ignore[arg-type]


def test_two_leaves_pop_as_pushed_and_four_may_not() -> None:
    a, b, c, d = (object() for _ in range(4))
    for waiting in range(8):
        assert pop_order(waiting, [a, b]) == [a, b]  # type: ignore[list-item]
    assert pop_order(0, [a, b, c, d]) == [a, c, b, d]  # type: ignore[list-item]
