"""``python -m benchmarks.against_torch``: micrograph's speed against PyTorch's, on the same workloads.

The engine's targets are set against micrograd (``python -m benchmarks``), in a process torch never
enters: torch's objects slow every full collection, which weighs on micrograd's reference cycles.
This command gives the other ratio a reader asks for, micrograph against torch on one-element
tensors (float64, as micrograph's numbers), both in this one process, taking turns (``turns.py``),
CPU time of the process, torch held to one thread.  The objects loaded before the first run
(torch's, about 167,000) are frozen out of the cyclic collector (``gc.freeze``): otherwise every
full collection walks them, and micrograph's forward, whose graphs the collector visits, runs
about twice as slow as it does without torch.  The workloads are ``workloads.py``'s, unchanged:
both engines run the very same program.  torch is no dependency of the project: without it the
command says how to install it.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
from typing import Any

from benchmarks.engines import LEARNING_RATE, MLP_SIZES, Engine, Laps, Points, micrograph
from benchmarks.report import spread
from benchmarks.turns import take_turns
from benchmarks.workloads import WORKLOADS

ROUNDS = 3
INSTALL = "pip install torch==2.13.0"


def torch_engine() -> Engine | None:
    """torch as an Engine (one thread, float64), or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)  # CPU time of the process: one thread, as each Python engine

    def clear_grads(params: list[Any]) -> None:
        for p in params:
            p.grad = None  # zero_grad()'s default (set_to_none=True)

    def update(params: list[Any], lr: float) -> None:
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad

    class TorchTrainer:
        def __init__(self, xs: Points, ys: list[float]) -> None:
            sizes = list(MLP_SIZES)
            layers: list[Any] = []
            for n_in, n_out in zip(sizes, sizes[1:]):
                layers += [torch.nn.Linear(n_in, n_out, dtype=torch.float64), torch.nn.ReLU()]
            self.model = torch.nn.Sequential(*layers[:-1])
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=LEARNING_RATE)
            self.rows = torch.tensor(xs, dtype=torch.float64)
            self.targets = torch.tensor([[y] for y in ys], dtype=torch.float64)

        def step(self, laps: Laps, backward_phase: str) -> None:
            self.optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(self.model(self.rows), self.targets)
            laps.start()
            loss.backward()
            laps.stop(backward_phase)
            self.optimizer.step()

    return Engine("torch", leaf=lambda x, g: torch.tensor(x, dtype=torch.float64, requires_grad=g),
                  backward=lambda y: y.backward(), clear_grads=clear_grads, update=update,
                  trainer=TorchTrainer, recursive=False)


def table(engines: list[Engine], rounds: int) -> str:
    """Each workload's phases: both engines' median times and micrograph's time over torch's."""
    lines = ["| workload | phase | micrograph (ms) | torch (ms) | time ratio: median (range of rounds) |",
             "|---|---|---|---|---|"]
    for workload in WORKLOADS:
        print(f"timing {workload.key} ...", file=sys.stderr, flush=True)
        turns = take_turns(engines, workload, rounds)
        for phase in workload.phases:
            mine, theirs = turns.median("micrograph", phase), turns.median("torch", phase)
            lines.append(f"| {workload.title} | {phase} | {mine * 1000:,.1f} | {theirs * 1000:,.1f} | "
                         f"{spread(turns.ratios('micrograph', 'torch', phase))} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.against_torch", description=__doc__)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds of turns (default {ROUNDS})")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    theirs = torch_engine()
    if theirs is None:
        print(f"torch is not installed here: `{INSTALL}` (a CPU wheel), then run this again.")
        return
    import torch
    engines = [micrograph(), theirs]
    gc.collect()
    gc.freeze()  # torch's own objects out of every later collection: only the workloads' objects are walked
    load = os.getloadavg()[0]
    report = table(engines, args.rounds)
    print(f"`python -m benchmarks.against_torch`: Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {load:.1f} at the start, torch {torch.__version__} on one thread. "
          f"Both engines in one process, taking turns ({args.rounds} rounds), `gc.collect()` before each run, "
          f"CPU time of the process, the objects loaded before the first run frozen (`gc.freeze()`).\n\n{report}")


if __name__ == "__main__":
    main()
