"""The report: each measured phase beside its target, as Markdown tables.

The targets are the engine's: forward at most 0.35× and backward at most 1.0×
micrograd's time on the chain, the sum and the MLP (``.grad`` kept or cleared);
an nn.MLP training step's backward at most 1.0× micrograd's at 128 rows and
growing at most 10× from 16 to 128 rows; at most 208 bytes per graph node.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from benchmarks import callgrind, workloads
from benchmarks.turns import Turns
from benchmarks.workloads import (
    BACKWARD, CHAIN, FORWARD, MLP_CLEARED, MLP_KEPT, SUM, TRAINING, TRAINING_ROWS, Workload, rows_backward,
)

MINE, REFERENCE = "micrograph", "micrograd"
FORWARD_AT_MOST, BACKWARD_AT_MOST = 0.35, 1.0  # × micrograd's time
GROWTH_AT_MOST = 10.0  # nn.MLP step's backward, 128 rows over 16 rows
BYTES_PER_NODE_AT_MOST = 208
_SMALL, _LARGE = rows_backward(TRAINING_ROWS[0]), rows_backward(TRAINING_ROWS[-1])


@dataclass(frozen=True)
class Target:
    workload: str
    phase: str
    at_most: float


TARGETS = tuple(
    Target(key, phase, limit)
    for key in (CHAIN, SUM, MLP_KEPT, MLP_CLEARED)
    for phase, limit in ((FORWARD, FORWARD_AT_MOST), (BACKWARD, BACKWARD_AT_MOST))
) + (Target(TRAINING, _LARGE, BACKWARD_AT_MOST),)


def _target(workload: str, phase: str) -> Target | None:
    return next((t for t in TARGETS if (t.workload, t.phase) == (workload, phase)), None)


def _status(value: float | None, at_most: float) -> str:
    if value is None:
        return "not measured"
    return "met" if value <= at_most else "missed"


def spread(values: list[float]) -> str:
    """Median and range, e.g. ``1.41× (1.30–1.52)``."""
    return f"{statistics.median(values):.2f}× ({min(values):.2f}–{max(values):.2f})"


def _ratio(a: int | None, b: int | None) -> str:
    return "—" if a is None or b is None else f"{a / b:.2f}×"


def _millions(n: int | None) -> str:
    return "—" if n is None else f"{n / 1e6:,.1f}"


def times_table(measured: list[tuple[Workload, Turns]], counts: callgrind.Instructions, rounds: int) -> str:
    lines = [
        "| workload | phase | micrograph (ms) | micrograd (ms) | time ratio: median (range of "
        f"{rounds} rounds) | micrograph (M instr.) | micrograd (M instr.) | instruction ratio | target | status |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for workload, turns in measured:
        has_ref = REFERENCE in turns.runs
        for phase in workload.phases:
            target = _target(workload.key, phase)
            ratios = turns.ratios(MINE, REFERENCE, phase) if has_ref else None
            mine_ir, ref_ir = counts.get(MINE, workload.key, phase), counts.get(REFERENCE, workload.key, phase)
            lines.append(
                f"| {workload.title} | {phase} | {turns.median(MINE, phase) * 1e3:,.1f} | "
                + (f"{turns.median(REFERENCE, phase) * 1e3:,.1f}" if has_ref else "—")
                + f" | {spread(ratios) if ratios else '—'} | {_millions(mine_ir)} | {_millions(ref_ir)} | "
                + f"{_ratio(mine_ir, ref_ir)} | "
                + (f"≤ {target.at_most:.2f}× | {_status(statistics.median(ratios) if ratios else None, target.at_most)}"
                   if target else "— | —")
                + " |"
            )
    return "\n".join(lines) + "\n"


def growth_table(turns: Turns, counts: callgrind.Instructions) -> str:
    lines = [
        f"| engine | backward, {TRAINING_ROWS[0]} rows (ms) | {TRAINING_ROWS[-1]} rows (ms) | time growth: "
        "median (range) | instruction growth | target | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for engine in turns.runs:
        growth = turns.growth(engine, _SMALL, _LARGE)
        small, large = counts.get(engine, TRAINING, _SMALL), counts.get(engine, TRAINING, _LARGE)
        mine = engine == MINE
        lines.append(
            f"| {engine} | {turns.median(engine, _SMALL) * 1e3:,.1f} | {turns.median(engine, _LARGE) * 1e3:,.1f} | "
            f"{spread(growth)} | {_ratio(large, small)} | "
            + (f"≤ {GROWTH_AT_MOST:.0f}× | {_status(statistics.median(growth), GROWTH_AT_MOST)}" if mine else "— | —")
            + " |"
        )
    return "\n".join(lines) + "\n"


def memory_table(per_engine: dict[str, float]) -> str:
    lines = [f"| engine | bytes per node (chain of {workloads.CHAIN_OPS:,} ops, graph alive; tracemalloc) | target "
             "| status |", "|---|---|---|---|"]
    for engine, per_node in per_engine.items():
        whole = round(per_node)  # the target is in whole bytes
        lines.append(f"| {engine} | {whole:,} | "
                     + (f"≤ {BYTES_PER_NODE_AT_MOST} B | {_status(whole, BYTES_PER_NODE_AT_MOST)}"
                        if engine == MINE else "— | —") + " |")
    return "\n".join(lines) + "\n"
