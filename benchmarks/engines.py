"""Adapters: the same workload code drives micrograph and karpathy's micrograd 0.1.0.

Each adapter makes leaves, runs backward, clears and applies gradients, and
builds an ``nn.MLP`` training step with the engine's own ``nn``; the workloads
use only Python operators on top, so both engines run the very same program.
Nothing here imports torch: importing it leaves about 167,000 objects for every
full collection to walk, which slows whichever engine collects most.

micrograd builds its topological order recursively, so its runs go through
``run_deep``: a thread with a large stack and a raised recursion limit.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, Protocol

# An nn.MLP 2-16-16-1 with ReLU between layers (micrograd's MLP has exactly this shape).
MLP_SIZES = (2, 16, 16, 1)
LEARNING_RATE = 0.05
_DEEP_STACK_BYTES = 512 * 1024 * 1024
_DEEP_RECURSION_LIMIT = 10_000_000

Points = list[tuple[float, float]]


class Laps(Protocol):
    """Marks where a measured phase starts and stops (a clock, or callgrind's dump points)."""

    def start(self) -> None: ...

    def stop(self, phase: str) -> None: ...


class Trainer(Protocol):
    """One training step of an nn.MLP on a fixed batch: zero_grad, forward, loss, backward, SGD."""

    def step(self, laps: Laps, backward_phase: str) -> None: ...


@dataclass(frozen=True)
class Engine:
    name: str
    leaf: Callable[[float, bool], Any]
    backward: Callable[[Any], None]
    clear_grads: Callable[[list[Any]], None]  # what zero_grad() does between training steps
    update: Callable[[list[Any], float], None]  # p -= lr * p.grad, outside the graph
    trainer: Callable[[Points, list[float]], Trainer]
    recursive: bool  # backward recurses (micrograd): run through run_deep

    def run(self, fn: Callable[[], None]) -> None:
        if self.recursive:
            run_deep(fn)
        else:
            fn()


def micrograph() -> Engine:
    import micrograph as mg
    from micrograph import nn, optim

    def clear_grads(params: list[Any]) -> None:
        for p in params:
            p.grad = None  # zero_grad()'s default (set_to_none=True), as torch's

    def update(params: list[Any], lr: float) -> None:
        with mg.no_grad():
            for p in params:
                p -= lr * p.grad

    class MicrographTrainer:
        def __init__(self, xs: Points, ys: list[float]) -> None:
            self.model = nn.MLP(MLP_SIZES, activation=nn.ReLU)
            self.optimizer = optim.SGD(self.model.parameters(), lr=LEARNING_RATE)
            self.rows = [list(x) for x in xs]
            self.targets = [[y] for y in ys]

        def step(self, laps: Laps, backward_phase: str) -> None:
            self.optimizer.zero_grad()
            loss = nn.mse_loss(self.model(self.rows), self.targets)
            laps.start()
            loss.backward()
            laps.stop(backward_phase)
            self.optimizer.step()

    return Engine("micrograph", leaf=lambda x, g: mg.Value(x, requires_grad=g), backward=lambda y: y.backward(),
                  clear_grads=clear_grads, update=update, trainer=MicrographTrainer, recursive=False)


def micrograd() -> Engine | None:
    """micrograd 0.1.0, or None when it is not installed (``pip install -e '.[bench]'``)."""
    try:
        from micrograd import nn
        from micrograd.engine import Value
    except ImportError:
        return None

    def clear_grads(params: list[Any]) -> None:
        for p in params:
            p.grad = 0  # micrograd's zero_grad(): it has no "no gradient yet"

    def update(params: list[Any], lr: float) -> None:
        for p in params:
            p.data -= lr * p.grad

    class MicrogradTrainer:
        def __init__(self, xs: Points, ys: list[float]) -> None:
            self.model = nn.MLP(MLP_SIZES[0], list(MLP_SIZES[1:]))
            self.rows = [list(x) for x in xs]
            self.targets = ys

        def step(self, laps: Laps, backward_phase: str) -> None:
            self.model.zero_grad()
            errors = [(self.model(x) - y) ** 2 for x, y in zip(self.rows, self.targets)]
            loss = sum(errors[1:], errors[0]) * (1.0 / len(errors))
            laps.start()
            loss.backward()
            laps.stop(backward_phase)
            update(self.model.parameters(), LEARNING_RATE)

    return Engine("micrograd", leaf=lambda x, g: Value(x), backward=lambda y: y.backward(),
                  clear_grads=clear_grads, update=update, trainer=MicrogradTrainer, recursive=True)


ADAPTERS: dict[str, Callable[[], Engine | None]] = {"micrograph": micrograph, "micrograd": micrograd}


def available() -> list[Engine]:
    """micrograph, then micrograd when installed."""
    return [e for e in (make() for make in ADAPTERS.values()) if e is not None]


def run_deep(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a thread with a 512 MiB stack and a high recursion limit (for micrograd)."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 - raised again below, in the caller's thread
            failure.append(e)

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size(_DEEP_STACK_BYTES)
    sys.setrecursionlimit(_DEEP_RECURSION_LIMIT)
    try:
        t = threading.Thread(target=target)
        t.start()
        t.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
