"""The workloads of the engine's speed targets, each a function of an Engine and a Laps.

Each workload builds its inputs, then brackets every measured phase with
``laps.start()`` / ``laps.stop(phase)``: a clock in ``python -m benchmarks``, a
callgrind dump point in ``benchmarks.callgrind``, so times and instruction counts
cover the same code.  Building inputs and applying updates stay outside the phases.
"""

from __future__ import annotations

import gc
import math
import random
import tracemalloc
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from benchmarks.engines import Engine, Laps

FORWARD = "forward"
BACKWARD = "backward"
CHAIN, SUM, MLP_KEPT, MLP_CLEARED, TRAINING = "chain", "sum", "mlp-kept", "mlp-cleared", "training"
CHAIN_OPS = 10_000
SUM_PRODUCTS = 10_000
MLP_POINTS = 100
TRAINING_ROWS = (16, 128)
STEPS = 2  # the last step is measured: it drops the previous step's graph, as a training loop does


def rows_backward(rows: int) -> str:
    """The phase name of an nn.MLP training step's backward over ``rows`` rows."""
    return f"backward, {rows} rows"


class NoLaps:
    """Laps that measure nothing: the steps before the measured one."""

    def start(self) -> None:
        pass

    def stop(self, phase: str) -> None:
        pass


def chain(engine: Engine, laps: Laps, ops: int = CHAIN_OPS) -> None:
    """``y = y * c + d`` from a leaf until ``ops`` ops, then backward."""

    def work() -> None:
        y = engine.leaf(0.5, True)
        c, d = engine.leaf(1.0000001, False), engine.leaf(0.1, False)
        laps.start()
        for _ in range(ops // 2):
            y = y * c + d
        laps.stop(FORWARD)
        laps.start()
        engine.backward(y)
        laps.stop(BACKWARD)

    engine.run(work)


def product_sum(engine: Engine, laps: Laps, n: int = SUM_PRODUCTS) -> None:
    """``a_0*b_0 + a_1*b_1 + ...`` over ``n`` pairs, added left to right by Python's ``sum``, then backward.

    Both engines build the same graph (n products, n - 1 additions, n leaves
    that require grad); ``micrograph.sum`` would be a single node, which
    micrograd has no counterpart for.
    """

    def work() -> None:
        rnd = random.Random(0)
        a = [engine.leaf(rnd.uniform(-1, 1), True) for _ in range(n)]
        b = [engine.leaf(rnd.uniform(-1, 1), False) for _ in range(n)]
        laps.start()
        products = [x * z for x, z in zip(a, b)]
        y = sum(products[1:], products[0])
        laps.stop(FORWARD)
        laps.start()
        engine.backward(y)
        laps.stop(BACKWARD)

    engine.run(work)


def moons(n: int, seed: int = 1) -> tuple[list[tuple[float, float]], list[float]]:
    """Two interleaved half circles with noise, labels -1 and 1 (sklearn's make_moons, without sklearn)."""
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


def mlp(engine: Engine, laps: Laps, clear: bool, points: int = MLP_POINTS) -> None:
    """micrograd's demo written with Values: MLP 2-16-16-1, max-margin loss + L2 over ``points`` points.

    ``clear``: every step starts by clearing the parameters' ``.grad`` as
    ``zero_grad()`` does (micrograph: ``None``, so each backward gives every
    leaf its first gradient; micrograd: 0); otherwise ``.grad`` is kept and
    accumulates.  The forward of the measured step starts by dropping the
    previous step's graph: each engine pays for freeing it where a training loop
    does (micrograph at once, by reference counting; micrograd's graphs are
    reference cycles, freed in the collector's later passes).
    """
    rnd = random.Random(1337)
    layers = [
        [([engine.leaf(rnd.uniform(-1, 1), True) for _ in range(n_in)], engine.leaf(0.0, True)) for _ in range(n_out)]
        for n_in, n_out in zip((2, 16, 16), (16, 16, 1))
    ]
    params = [p for layer in layers for ws, b in layer for p in (*ws, b)]
    xs, ys = moons(points)

    def model(x: list[Any]) -> Any:
        for i, layer in enumerate(layers):
            relu = i < len(layers) - 1
            x = [_neuron(ws, b, x, relu) for ws, b in layer]
        return x[0]

    def step(laps: Laps, previous: list[Any]) -> None:
        if clear:
            engine.clear_grads(params)
        laps.start()
        previous.clear()
        inputs = [[engine.leaf(a, False), engine.leaf(b, False)] for a, b in xs]
        scores = [model(x) for x in inputs]
        losses = [(1 + -yi * s).relu() for yi, s in zip(ys, scores)]
        data_loss = sum(losses[1:], losses[0]) * (1.0 / len(losses))
        reg = sum((p * p for p in params[1:]), params[0] * params[0]) * 1e-4
        loss = data_loss + reg
        laps.stop(FORWARD)
        laps.start()
        engine.backward(loss)
        laps.stop(BACKWARD)
        engine.update(params, 0.05)
        previous.append(loss)

    def work() -> None:
        graph: list[Any] = []
        for i in range(STEPS):
            step(laps if i == STEPS - 1 else NoLaps(), graph)

    engine.run(work)


def _neuron(ws: list[Any], b: Any, x: list[Any], relu: bool) -> Any:
    act = sum((wi * xi for wi, xi in zip(ws, x)), b)
    return act.relu() if relu else act


def training(engine: Engine, laps: Laps, rows: tuple[int, ...] = TRAINING_ROWS) -> None:
    """An nn.MLP 2-16-16-1 training step (zero_grad, forward, mse_loss, backward, SGD) per batch size.

    Each engine's own ``nn`` and loss: micrograph's ``nn.MLP`` (one ``Linear`` node per
    layer call over the whole batch) with ``optim.SGD``, micrograd's ``MLP`` row by row.
    Only backward is measured, once per batch size, in the last of ``STEPS`` steps.
    """

    def work() -> None:
        for n in rows:
            gc.collect()  # the smaller batch's garbage stays off the larger one's clock
            xs, ys = moons(n)
            trainer = engine.trainer(xs, ys)
            for i in range(STEPS):
                trainer.step(laps if i == STEPS - 1 else NoLaps(), rows_backward(n))

    engine.run(work)


@dataclass(frozen=True)
class Workload:
    key: str  # for --only
    title: str
    run: Callable[[Engine, Laps], None]
    phases: tuple[str, ...]


WORKLOADS = (
    Workload(CHAIN, f"chain of {CHAIN_OPS:,} ops (y = y*c + d)", chain, (FORWARD, BACKWARD)),
    Workload(SUM, f"sum of {SUM_PRODUCTS:,} products", product_sum, (FORWARD, BACKWARD)),
    Workload(MLP_KEPT, f"MLP 2-16-16-1 × {MLP_POINTS} points, .grad kept", partial(mlp, clear=False),
             (FORWARD, BACKWARD)),
    Workload(MLP_CLEARED, f"MLP 2-16-16-1 × {MLP_POINTS} points, .grad cleared each step",
             partial(mlp, clear=True), (FORWARD, BACKWARD)),
    Workload(TRAINING, "nn.MLP 2-16-16-1 training step", training, tuple(rows_backward(n) for n in TRAINING_ROWS)),
)


def bytes_per_node(engine: Engine, ops: int = CHAIN_OPS) -> float:
    """Bytes allocated (tracemalloc) per op of the ``ops``-op chain, its graph alive.

    Read as the growth over the chain's second half, so that one-off allocations
    (a cache filled by the first op) are not spread over the nodes.
    """
    y = engine.leaf(0.5, True)
    c, d = engine.leaf(1.0000001, False), engine.leaf(0.1, False)
    first, second = ops // 4, ops // 2 - ops // 4  # steps of two ops in each half
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(first):
            y = y * c + d
        half = tracemalloc.get_traced_memory()[0]
        for _ in range(second):
            y = y * c + d
        built = tracemalloc.get_traced_memory()[0] - half
    finally:
        tracemalloc.stop()
    return built / (2 * second)
