"""``python -m benchmarks``: run every workload on every available engine and print ratios.

Times are medians over repeats, all engines in the same process and the same
run, so the ratios hold on a noisy shared machine even when absolute times do
not.  ``--gc off`` runs the timed parts with the cyclic collector disabled.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from typing import Callable

from benchmarks import workloads
from benchmarks.engines import Engine, available, micrograd


def alternating_medians(
    engines: list[Engine], work: Callable[[Engine], dict[str, float]], repeats: int
) -> dict[str, dict[str, float]]:
    """Each engine's median phase times over ``repeats`` rounds, the engines taking turns in each round.

    Taking turns (rather than all of one engine's runs, then the next's) exposes
    every engine to the same moments of a shared machine's load.  A full collection
    before each run keeps one engine's garbage off the next one's clock: micrograd's
    graphs are reference cycles, freed only by the cyclic collector, which otherwise
    ran (and was timed) inside the following micrograph run.
    """
    runs: dict[str, list[dict[str, float]]] = {e.name: [] for e in engines}
    for _ in range(repeats):
        for e in engines:
            gc.collect()  # untimed: no engine's cyclic garbage is left for the next engine's clock
            runs[e.name].append(work(e))
    return {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}


def fmt_ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or b is None or b == 0 else f"{a / b:.2f}×"


def _total(r: dict[str, float | None], phases: list[str]) -> float | None:
    values = [r.get(p) for p in phases]
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def table(title: str, unit: str, rows: list[tuple[str, dict[str, float | None]]], phases: list[str]) -> str:
    """Times per phase, then forward and backward against micrograd's and the total against both references."""
    head = f"\n### {title}\n\n| engine | " + " | ".join(f"{p} ({unit})" for p in phases)
    head += " | forward vs micrograd | backward vs micrograd | total vs micrograd | total vs torch |\n"
    head += "|---" * (len(phases) + 5) + "|\n"
    by_name = dict(rows)
    ref, torch = by_name.get("micrograd", {}), by_name.get("torch", {})
    lines = []
    for name, r in rows:
        cells = [("—" if r.get(p) is None else f"{r[p]:,.0f}") for p in phases]
        lines.append(
            f"| {name} | " + " | ".join(cells)
            + f" | {fmt_ratio(r.get('forward'), ref.get('forward'))} | {fmt_ratio(r.get('backward'), ref.get('backward'))}"
            + f" | {fmt_ratio(_total(r, phases), _total(ref, phases))} | {fmt_ratio(_total(r, phases), _total(torch, phases))} |"
        )
    return head + "\n".join(lines) + "\n"


def per_op(result: dict[str, float], n: int) -> dict[str, float | None]:
    return {k: v / n * 1e9 for k, v in result.items()}


class Report(list):
    """The report's sections, each printed as soon as it is measured (a long run shows progress)."""

    def append(self, section: str) -> None:  # type: ignore[override]
        super().append(section)
        print(section, flush=True)


class Targets:
    """The engine's speed and size targets, filled in as the workloads are measured; printed last."""

    RATIOS = (  # (workload, measure, reference, at most)
        ("chain", "forward", "micrograd", 0.35), ("chain", "backward", "micrograd", 1.0),
        ("wide", "forward", "micrograd", 0.35), ("wide", "backward", "micrograd", 1.0),
        ("mlp", "forward", "micrograd", 0.35), ("mlp", "backward", "micrograd", 1.0),
        ("mlp", "step", "micrograd", 0.35), ("mlp", "step", "torch", 0.5),
    )
    BYTES_PER_NODE = 250

    def __init__(self) -> None:
        self.results: dict[str, dict[str, dict[str, float | None]]] = {}
        self.bytes_per_node: float | None = None

    def record(self, workload: str, rows: list[tuple[str, dict[str, float | None]]]) -> None:
        self.results[workload] = dict(rows)

    def report(self) -> str:
        lines = ["\n### targets\n", "| target | measured | status |", "|---|---|---|"]
        for workload, measure, ref, limit in self.RATIOS:
            got = self._ratio(workload, measure, ref)
            what = "whole training step" if measure == "step" else measure
            lines.append(f"| {workload} {what} ≤ {limit:.2f}× {ref} | "
                         + ("not measured" if got is None else f"{got:.2f}×") + f" | {_status(got, limit)} |")
        if self.bytes_per_node is not None:
            b = self.bytes_per_node
            lines.append(f"| ≤ {self.BYTES_PER_NODE} B per node | {b:,.0f} B | {_status(b, self.BYTES_PER_NODE)} |")
        return "\n".join(lines) + "\n"

    def _ratio(self, workload: str, measure: str, ref: str) -> float | None:
        rows = self.results.get(workload, {})
        mine, theirs = rows.get("micrograph"), rows.get(ref)
        if mine is None or theirs is None:
            return None
        if measure == "step":
            a, b = _total(mine, ["forward", "backward", "step"]), _total(theirs, ["forward", "backward", "step"])
        else:
            a, b = mine.get(measure), theirs.get(measure)
        return None if a is None or not b else a / b


def _status(got: float | None, limit: float) -> str:
    if got is None:
        return "—"
    return "met" if got <= limit else f"missed by {got / limit:.2f}×"


def run(args: argparse.Namespace) -> str:
    engines = available()
    out = Report([
        f"# micrograph benchmarks\n\n{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{platform.machine()}, GC {'off' if args.gc == 'off' else 'on (default)'}; "
        f"engines: {', '.join(e.name for e in engines)}; medians of {args.repeats} runs taking turns; "
        f"CPU time of the process; load average {os.getloadavg()[0]:.1f} at the start.\n"
    ])
    print(out[0], flush=True)
    if args.gc == "off":
        gc.disable()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000]
    headline = sizes[-1] if args.quick else 100_000  # the chain size the targets are read at
    targets = Targets()
    wanted = set(args.only.split(",")) if args.only else None

    def want(name: str) -> bool:
        return wanted is None or name in wanted

    if want("chain"):
        for n in sizes:
            measured = [e for e in engines if not (e.name == "micrograd" and n > 100_000)]
            repeats = 1 if n > 100_000 else args.repeats  # the deepest chain shows it runs, not a ratio
            medians = alternating_medians(measured, lambda e: workloads.chain(e, n), repeats)
            rows = [(e.name, per_op(medians[e.name], n) if e.name in medians
                     else {"forward": None, "backward": None, "gc": None}) for e in engines]
            print(f"chain {n} done", file=sys.stderr)
            out.append(table(f"chain, N={n:,} (y = y*c + d): ns per step", "ns", rows, ["forward", "backward"]))
            out.append("GC time inside (ns/step): " + ", ".join(f"{name} {r['gc']:,.0f}" for name, r in rows if r.get("gc") is not None) + "\n")
            if n == headline:
                targets.record("chain", rows)
        out.append(_micrograd_default_depth())
    if want("wide"):
        n = 10_000 if args.quick else 100_000
        medians = alternating_medians(engines, lambda e: workloads.wide(e, n), args.repeats)
        rows = [(e.name, per_op(medians[e.name], n)) for e in engines]
        out.append(table(f"wide: sum of {n:,} products: ns per product", "ns", rows, ["forward", "backward"]))
        targets.record("wide", rows)
    if want("mlp"):
        medians = alternating_medians(engines, workloads.mlp, args.repeats)
        rows = [(e.name, {k: v * 1e3 for k, v in medians[e.name].items()}) for e in engines]
        out.append(table("mlp 2-16-16-1 × 100 points: one training step", "ms", rows, ["forward", "backward", "step"]))
        targets.record("mlp", rows)
    if want("memory"):
        n = 10_000 if args.quick else 100_000
        lines = ["\n### memory: chain N={:,}\n\n| engine | bytes per graph node | bytes per node still held after backward |\n|---|---|---|".format(n)]
        for e in engines:
            if e.name == "torch":
                continue  # tracemalloc cannot see torch's C++ allocations
            m = workloads.memory(e, n)
            if e.name == "micrograph":
                targets.bytes_per_node = m["bytes_per_node"]
            lines.append(f"| {e.name} | {m['bytes_per_node']:,.0f} | {m['held_after_backward_per_node']:,.0f} |")
        out.append("\n".join(lines) + "\n")
    if want("gc"):
        n = 10_000
        lines = [f"\n### objects the cyclic GC walks, per op of a live graph (N={n:,})\n",
                 "| engine | chain (y*c + d) | mlp layer (mul, add, relu) |", "|---|---|---|"]
        for e in engines:
            if e.name != "torch":  # torch's graph lives in C++, outside Python's collector
                t = workloads.tracked_objects(e, n)
                lines.append(f"| {e.name} | {t['chain']:.2f} | {t['layer']:.2f} |")
        out.append("\n".join(lines) + "\n")
    if want("floor"):
        n = 100_000
        f = workloads.floor(n)
        out.append(
            f"\n### interpreter floor, N={n:,}\n\nfloat multiply-add loop: {f['float loop'] / n * 1e9:,.0f} ns/step; "
            f"`__slots__` tape forward+backward: {f['slots tape'] / n * 1e9:,.0f} ns/step\n"
        )
    if want("grader"):
        from benchmarks.grading import grader_figures

        out.append(grader_figures(quick=args.quick))
    if targets.results:
        out.append(targets.report())
    return "".join(out)


def _micrograd_default_depth() -> str:
    e = micrograd()
    if e is None:
        return ""
    n = 1_000
    try:
        w = e.leaf(0.5, True)
        y = w
        for _ in range(n):
            y = y * 1.0000001 + 0.1
        e.backward(y)
        return f"\nmicrograd at N={n:,} with default recursion limit: ok\n"
    except RecursionError:
        return f"\nmicrograd at N={n:,} with default recursion limit: RecursionError (micrograph runs N=1,000,000)\n"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--gc", choices=["on", "off"], default="on")
    p.add_argument("--only", help="comma-separated workloads: chain,wide,mlp,memory,gc,floor,grader")
    p.add_argument("--markdown", help="also write the report to this file")
    args = p.parse_args(argv)
    report = run(args)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(report)


if __name__ == "__main__":
    main()
