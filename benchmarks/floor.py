"""``python -m benchmarks.floor``: what PyTorch's algorithm alone costs in Python, against micrograd.

The engine's speed targets (forward at most 0.35×, backward at most 1.0× micrograd's time)
are measured on micrograph, which does more per node than the algorithm needs: version
checks, hooks, the observation seam.  This module measures the floor under them: a bare
engine that runs the same algorithm as ``micrograph/engine.py`` (dependency counts, a ready
queue by sequence number on ``heapq``, an input buffer per node, saved operands freed after
``apply``) and nothing else: no versions, no hooks, no ``retain_grad``, no ``no_grad``, no
checks.  Whatever ratio it reaches on a workload, no engine written this way in Python can
beat on this interpreter; micrograph's own figures (``python -m benchmarks``) sit above it.

It runs the workloads of ``python -m benchmarks`` (chain, sum, the MLP with ``.grad`` kept and
cleared) the same way: one process, taking turns with micrograd, ``gc.collect()`` before each
run, CPU time, torch not imported.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
from collections import deque
import os
import platform
from typing import Any

from benchmarks import workloads
from benchmarks.engines import Engine, micrograd
from benchmarks.report import BACKWARD_AT_MOST, FORWARD_AT_MOST, REFERENCE, spread
from benchmarks.turns import take_turns
from benchmarks.workloads import BACKWARD, FORWARD, WORKLOADS

FLOOR = "bare algorithm"
_sequence = itertools.count()


class _Node:
    """torch's Node, bare: the next nodes (None for an input that needs no gradient), a
    sequence number, what backward needs."""

    __slots__ = ("next", "sequence_nr", "saved")

    def __init__(self, nxt: tuple[Any, ...], saved: Any) -> None:
        self.next, self.sequence_nr, self.saved = nxt, next(_sequence), saved


class _Accumulate(_Node):
    """A leaf's accumulator; it runs as soon as it is ready, as torch's (its sequence_nr is UINT64_MAX)."""

    __slots__ = ()

    def __init__(self, leaf: Bare) -> None:
        self.next, self.sequence_nr, self.saved = (), -1, leaf


class _Add(_Node):
    __slots__ = ()

    def apply(self, g: float) -> tuple[float, float]:
        return g, g


class _Mul(_Node):
    __slots__ = ()

    def apply(self, g: float) -> tuple[float, float]:
        a, b = self.saved
        self.saved = None  # release_variables
        return g * b, g * a


class _Relu(_Node):
    __slots__ = ()

    def apply(self, g: float) -> tuple[float]:
        result, self.saved = self.saved, None
        return (g if result > 0 else 0.0,)


class Bare:
    """A scalar: its number, its gradient, its node; a leaf keeps its accumulator."""

    __slots__ = ("data", "grad", "grad_fn", "requires_grad", "accumulator")

    def __init__(self, data: float, requires_grad: bool = False) -> None:
        self.data, self.grad, self.grad_fn, self.requires_grad, self.accumulator = data, None, None, requires_grad, None

    def _edge(self) -> _Node | None:
        if self.grad_fn is not None or not self.requires_grad:
            return self.grad_fn
        if self.accumulator is None:
            self.accumulator = _Accumulate(self)
        return self.accumulator

    def _result(self, data: float, other: Bare | None, node: type[_Node], saved: Any) -> Bare:
        out = Bare(data)
        if self.requires_grad or (other is not None and other.requires_grad):
            edges = (self._edge(),) if other is None else (self._edge(), other._edge())
            out.grad_fn, out.requires_grad = node(edges, saved), True
        return out

    def __add__(self, other: Any) -> Bare:
        other = other if isinstance(other, Bare) else Bare(float(other))
        return self._result(self.data + other.data, other, _Add, None)

    def __mul__(self, other: Any) -> Bare:
        other = other if isinstance(other, Bare) else Bare(float(other))
        return self._result(self.data * other.data, other, _Mul, (self.data, other.data))

    __radd__, __rmul__ = __add__, __mul__

    def relu(self) -> Bare:
        out = max(self.data, 0.0)
        return self._result(out, None, _Relu, out)

    def backward(self) -> None:
        """Dependency counts, then the ready queue: the newest ready node first, accumulators as soon as ready."""
        root = self.grad_fn
        deps, stack = {root: 1}, [root]
        while stack:
            for nxt in stack.pop().next:
                if nxt is not None:
                    count = deps[nxt] = deps.get(nxt, 0) + 1
                    if count == 1:
                        stack.append(nxt)
        buffers: dict[_Node, float] = {}
        ready: list[int] = []
        waiting: dict[int, tuple[_Node, float]] = {}  # -sequence_nr -> (node, its input buffer)
        leaves: deque[tuple[_Node, float]] = deque()  # ready accumulators, in turn
        node, g = root, 1.0
        while True:
            if type(node) is _Accumulate:
                leaf = node.saved
                leaf.grad = g if leaf.grad is None else leaf.grad + g
            else:
                for nxt, gi in zip(node.next, node.apply(g)):
                    if nxt is not None:
                        left = deps[nxt] = deps[nxt] - 1
                        if nxt in buffers:
                            gi += buffers.pop(nxt)
                        if left:
                            buffers[nxt] = gi
                        elif type(nxt) is _Accumulate:
                            leaves.append((nxt, gi))
                        else:
                            waiting[-nxt.sequence_nr] = nxt, gi
                            heapq.heappush(ready, -nxt.sequence_nr)
            if leaves:
                node, g = leaves.popleft()
            elif ready:
                node, g = waiting.pop(heapq.heappop(ready))
            else:
                return


def _clear(params: list[Bare]) -> None:
    for p in params:
        p.grad = None


def _update(params: list[Bare], lr: float) -> None:
    for p in params:
        p.data -= lr * p.grad


def bare() -> Engine:
    return Engine(FLOOR, leaf=lambda x, g: Bare(x, g), backward=lambda y: y.backward(), clear_grads=_clear,
                  update=_update, trainer=lambda xs, ys: None, recursive=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.floor", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    reference = micrograd()
    if reference is None:
        parser.exit(1, f"{REFERENCE} is not installed: pip install -e '.[bench]'\n")
    engines = [bare(), reference]
    load = os.getloadavg()[0]
    lines = [f"`python -m benchmarks.floor`: Python {platform.python_version()}, {os.cpu_count()} cores, load average "
             f"{load:.1f} at the start, {args.rounds} rounds.\n",
             f"| workload | phase | {FLOOR} (ms) | {REFERENCE} (ms) | time ratio: median (range) | target |",
             "|---|---|---|---|---|---|"]
    for workload in WORKLOADS:
        if workload.key == workloads.TRAINING:
            continue  # each engine's own nn.MLP: the bare engine has none
        turns = take_turns(engines, workload, args.rounds)
        for phase, at_most in ((FORWARD, FORWARD_AT_MOST), (BACKWARD, BACKWARD_AT_MOST)):
            lines.append(f"| {workload.title} | {phase} | {turns.median(FLOOR, phase) * 1e3:,.1f} | "
                         f"{turns.median(REFERENCE, phase) * 1e3:,.1f} | {spread(turns.ratios(FLOOR, REFERENCE, phase))} "
                         f"| ≤ {at_most:.2f}× |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
