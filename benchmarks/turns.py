"""Taking turns: every engine runs a workload once per round, in one process, A B A B ...

Taking turns (rather than all of one engine's runs, then the other's) exposes
both engines to the same moments of a shared machine's load, and a ratio is
read per round, between two runs next to each other in time.  A full collection
before each run keeps one engine's garbage off the other's clock: micrograd's
graphs are reference cycles, freed only by the cyclic collector, which would
otherwise run (and be timed) inside the next micrograph run.  Times are the
process's CPU time, not the wall clock, which also counts the moments other
jobs held the cores.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass

from benchmarks.engines import Engine
from benchmarks.workloads import Workload

clock = time.process_time


class CpuLaps:
    """Laps on the process's CPU clock: seconds per phase."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._started = 0.0

    def start(self) -> None:
        self._started = clock()

    def stop(self, phase: str) -> None:
        self.seconds[phase] = self.seconds.get(phase, 0.0) + clock() - self._started


@dataclass(frozen=True)
class Turns:
    """Each engine's phase times in seconds, one dict per round, rounds in order."""

    runs: dict[str, list[dict[str, float]]]

    def median(self, engine: str, phase: str) -> float:
        return statistics.median(run[phase] for run in self.runs[engine])

    def ratios(self, engine: str, reference: str, phase: str) -> list[float]:
        """``engine``'s time over ``reference``'s, round by round."""
        return [a[phase] / b[phase] for a, b in zip(self.runs[engine], self.runs[reference])]

    def growth(self, engine: str, phase_from: str, phase_to: str) -> list[float]:
        """``phase_to``'s time over ``phase_from``'s, round by round, for one engine."""
        return [run[phase_to] / run[phase_from] for run in self.runs[engine]]


def take_turns(engines: list[Engine], workload: Workload, rounds: int) -> Turns:
    runs: dict[str, list[dict[str, float]]] = {e.name: [] for e in engines}
    for _ in range(rounds):
        for engine in engines:
            gc.collect()  # untimed: no engine's garbage is left for the next one's clock
            laps = CpuLaps()
            workload.run(engine, laps)
            runs[engine.name].append(laps.seconds)
    return Turns(runs)
