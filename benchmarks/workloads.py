"""The benchmark's workloads, each a function of an Engine returning phase timings in seconds."""

from __future__ import annotations

import functools
import gc
import random
import time
import tracemalloc
from typing import Any, Callable

from benchmarks.engines import Engine, run_deep

# The CPU time of this process, not the wall clock: on a shared machine the wall clock also counts
# the moments other jobs held the cores, which land on one phase or engine at random.  torch runs
# on one thread (engines.py), so its CPU time is its work too.
clock = time.process_time


class GCTimer:
    """Time spent inside the cyclic garbage collector, via ``gc.callbacks``."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = 0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = clock()
        else:
            self.seconds += clock() - self._start
            self.collections += 1

    def __enter__(self) -> GCTimer:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = clock()
    out = fn()
    return clock() - t0, out


def chain(engine: Engine, n: int) -> dict[str, float]:
    """``y = y * c + d`` n times from a leaf, then backward: forward and backward timed apart."""

    def work() -> dict[str, float]:
        w = engine.leaf(0.5, True)
        c, d = engine.leaf(1.0000001, False), engine.leaf(0.1, False)

        def forward() -> Any:
            y = w
            for _ in range(n):
                y = y * c + d
            return y

        with GCTimer() as gct:
            t_fwd, y = _timed(forward)
            t_bwd, _ = _timed(functools.partial(engine.backward, y))
        del y  # dropping a deep graph is not timed
        return {"forward": t_fwd, "backward": t_bwd, "gc": gct.seconds}

    return work() if engine.deep_ok else run_deep(work)


def wide(engine: Engine, n: int) -> dict[str, float]:
    """The sum of n products ``a_i * b_i`` (the engine's own sum), then backward."""

    def work() -> dict[str, float]:
        rnd = random.Random(0)
        a = [engine.leaf(rnd.uniform(-1, 1), True) for _ in range(n)]
        b = [engine.leaf(rnd.uniform(-1, 1), False) for _ in range(n)]
        with GCTimer() as gct:
            t_fwd, y = _timed(lambda: engine.total([x * z for x, z in zip(a, b)]))
            t_bwd, _ = _timed(lambda: engine.backward(y))
        return {"forward": t_fwd, "backward": t_bwd, "gc": gct.seconds}

    return work() if engine.deep_ok else run_deep(work)


def moons(n: int = 100, seed: int = 1) -> tuple[list[tuple[float, float]], list[float]]:
    """Two interleaved half circles with noise (sklearn's make_moons, without sklearn)."""
    import math

    rnd = random.Random(seed)
    xs, ys = [], []
    for i in range(n):
        t = math.pi * (i // 2) / (n // 2)
        if i % 2 == 0:
            x, y, label = math.cos(t), math.sin(t), -1.0
        else:
            x, y, label = 1 - math.cos(t), 0.5 - math.sin(t), 1.0
        xs.append((x + rnd.gauss(0, 0.1), y + rnd.gauss(0, 0.1)))
        ys.append(label)
    return xs, ys


def mlp(engine: Engine, steps: int = 2) -> dict[str, float]:
    """micrograd's demo: MLP 2-16-16-1, max-margin loss + L2 over 100 points, backward, SGD step.

    Timed as a training loop runs: the figures are the last step's, and its forward starts by
    dropping the previous step's graph.  That is where each engine pays for freeing it: at once
    by reference counting (micrograph, torch) or in the cyclic collector's next passes
    (micrograd's graphs are cycles: each value's ``_backward`` closure holds the value).
    """
    rnd = random.Random(1337)
    sizes = [2, 16, 16, 1]
    layers = [
        [([engine.leaf(rnd.uniform(-1, 1), True) for _ in range(nin)], engine.leaf(0.0, True)) for _ in range(nout)]
        for nin, nout in zip(sizes, sizes[1:])
    ]
    params = [p for layer in layers for ws, b in layer for p in (*ws, b)]
    xs, ys = moons()

    def model(x: list[Any]) -> Any:
        for i, layer in enumerate(layers):
            last = i == len(layers) - 1
            x = [_neuron(ws, b, x, relu=not last) for ws, b in layer]
        return x[0]

    def step(previous: list[Any]) -> tuple[dict[str, float], Any]:
        with GCTimer() as gct:
            t0 = clock()
            previous.clear()  # the last step's graph goes now, on this step's clock
            inputs = [[engine.leaf(a, False), engine.leaf(b, False)] for a, b in xs]
            scores = [model(x) for x in inputs]
            losses = [(1 + -yi * s).relu() for yi, s in zip(ys, scores)]
            data_loss = sum(losses[1:], losses[0]) * (1.0 / len(losses))
            reg = sum((p * p for p in params[1:]), params[0] * params[0]) * 1e-4
            loss = data_loss + reg
            t1 = clock()
            engine.backward(loss)
            t2 = clock()
            for p in params:
                engine.update(p, 0.05)
            t3 = clock()
        return {"forward": t1 - t0, "backward": t2 - t1, "step": t3 - t2, "gc": gct.seconds}, loss

    result: dict[str, float] = {}
    graph: list[Any] = []
    for _ in range(steps):
        result, loss = step(graph)
        graph.append(loss)
    return result


def _neuron(ws: list[Any], b: Any, x: list[Any], relu: bool) -> Any:
    act = sum((wi * xi for wi, xi in zip(ws, x)), b)
    return act.relu() if relu else act


def memory(engine: Engine, n: int) -> dict[str, float]:
    """Bytes per graph node for an n-step chain, and bytes still held after backward."""
    w = engine.leaf(0.5, True)
    c, d = engine.leaf(1.0000001, False), engine.leaf(0.1, False)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        y = w
        for _ in range(n):
            y = y * c + d
        built = tracemalloc.get_traced_memory()[0] - base
        if engine.deep_ok:
            engine.backward(y)
        else:
            run_deep(lambda: engine.backward(y))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    nodes = 2 * n
    return {"bytes_per_node": built / nodes, "held_after_backward_per_node": held / nodes}


def tracked_objects(engine: Engine, n: int) -> dict[str, float]:
    """Objects the cyclic GC keeps walking, per op, in a live graph: chain and mlp forward.

    Counted after a full collection (which untracks tuples of numbers), so this is
    what every later collection walks again while the graph lives.
    """

    def per_op(build: Callable[[], Any], ops: int) -> float:
        gc.collect()
        before = len(gc.get_objects())
        graph = build()
        gc.collect()
        alive = len(gc.get_objects()) - before
        del graph
        return alive / ops

    def chain_graph() -> Any:
        y, c, d = engine.leaf(0.5, True), engine.leaf(1.0000001, False), engine.leaf(0.1, False)
        for _ in range(n):
            y = y * c + d
        return y

    rnd = random.Random(7)
    weights = [[engine.leaf(rnd.uniform(-1, 1), True) for _ in range(16)] for _ in range(16)]
    points = [[engine.leaf(rnd.uniform(-1, 1), False) for _ in range(16)] for _ in range(n // 528)]

    def layer_graph() -> Any:  # one 16x16 relu layer per point: 16 * (16 mul + 16 add + relu) = 528 ops
        return [[sum((w * x for w, x in zip(row, xs)), engine.leaf(0.0, False)).relu() for row in weights] for xs in points]

    return {"chain": per_op(chain_graph, 2 * n), "layer": per_op(layer_graph, 528 * len(points))}


def floor(n: int) -> dict[str, float]:
    """What pure Python can do at best: a float loop, and a tape of ``__slots__`` objects."""

    class Tape:
        __slots__ = ("data", "grad", "a", "b")

        def __init__(self, data: float, a: Any, b: Any) -> None:
            self.data, self.grad, self.a, self.b = data, 0.0, a, b

    def loop() -> float:
        y = 0.5
        for _ in range(n):
            y = y * 1.0000001 + 0.1
        return y

    def tape() -> None:
        y = Tape(0.5, None, None)
        nodes = []
        for _ in range(n):
            m = Tape(y.data * 1.0000001, y, None)
            y = Tape(m.data + 0.1, m, None)
            nodes.append(m)
            nodes.append(y)
        y.grad = 1.0
        for node in reversed(nodes):
            if node.a is not None:
                node.a.grad += node.grad

    t_loop, _ = _timed(loop)
    t_tape, _ = _timed(tape)
    return {"float loop": t_loop, "slots tape": t_tape}
