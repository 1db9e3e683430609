"""``python -m benchmarks``: run every workload on every available engine and print ratios.

Times are medians over repeats, all engines in the same process and the same
run, so the ratios hold on a noisy shared machine even when absolute times do
not.  ``--gc off`` runs the timed parts with the cyclic collector disabled.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from typing import Callable

from benchmarks import workloads
from benchmarks.engines import available, micrograd


def median_runs(fn: Callable[[], dict[str, float]], repeats: int) -> dict[str, float]:
    runs = [fn() for _ in range(repeats)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def fmt_ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or b is None or b == 0 else f"{a / b:.2f}×"


def table(title: str, unit: str, rows: list[tuple[str, dict[str, float | None]]], phases: list[str]) -> str:
    head = f"\n### {title}\n\n| engine | " + " | ".join(f"{p} ({unit})" for p in phases) + " | vs micrograd | vs torch |\n"
    head += "|---" * (len(phases) + 3) + "|\n"
    totals = {name: (sum(v for p in phases if (v := r.get(p)) is not None) if all(r.get(p) is not None for p in phases) else None) for name, r in rows}
    lines = []
    for name, r in rows:
        cells = [("—" if r.get(p) is None else f"{r[p]:,.0f}") for p in phases]
        lines.append(
            f"| {name} | " + " | ".join(cells)
            + f" | {fmt_ratio(totals[name], totals.get('micrograd'))} | {fmt_ratio(totals[name], totals.get('torch'))} |"
        )
    return head + "\n".join(lines) + "\n"


def per_op(result: dict[str, float], n: int) -> dict[str, float | None]:
    return {k: v / n * 1e9 for k, v in result.items()}


class Report(list):
    """The report's sections, each printed as soon as it is measured (a long run shows progress)."""

    def append(self, section: str) -> None:  # type: ignore[override]
        super().append(section)
        print(section, flush=True)


def run(args: argparse.Namespace) -> str:
    engines = available()
    out = Report([
        f"# micrograph benchmarks\n\n{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{platform.machine()}, GC {'off' if args.gc == 'off' else 'on (default)'}; "
        f"engines: {', '.join(e.name for e in engines)}; medians of {args.repeats} runs.\n"
    ])
    print(out[0], flush=True)
    if args.gc == "off":
        gc.disable()
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000]
    wanted = set(args.only.split(",")) if args.only else None

    def want(name: str) -> bool:
        return wanted is None or name in wanted

    if want("chain"):
        for n in sizes:
            rows = []
            for e in engines:
                if e.name == "micrograd" and n > 100_000:
                    rows.append((e.name, {"forward": None, "backward": None, "gc": None}))
                    continue
                rows.append((e.name, per_op(median_runs(lambda e=e: workloads.chain(e, n), args.repeats), n)))
                print(f"chain {n} {e.name} done", file=sys.stderr)
            out.append(table(f"chain, N={n:,} (y = y*c + d): ns per step", "ns", rows, ["forward", "backward"]))
            out.append("GC time inside (ns/step): " + ", ".join(f"{name} {r['gc']:,.0f}" for name, r in rows if r.get("gc") is not None) + "\n")
        out.append(_micrograd_default_depth())
    if want("wide"):
        n = 10_000 if args.quick else 100_000
        rows = [(e.name, per_op(median_runs(lambda e=e: workloads.wide(e, n), args.repeats), n)) for e in engines]
        out.append(table(f"wide: sum of {n:,} products: ns per product", "ns", rows, ["forward", "backward"]))
    if want("mlp"):
        rows = [(e.name, {k: v * 1e3 for k, v in median_runs(lambda e=e: workloads.mlp(e), args.repeats).items()}) for e in engines]
        out.append(table("mlp 2-16-16-1 × 100 points: one training step", "ms", rows, ["forward", "backward", "step"]))
    if want("memory"):
        n = 10_000 if args.quick else 100_000
        lines = ["\n### memory: chain N={:,}\n\n| engine | bytes per graph node | bytes per node still held after backward |\n|---|---|---|".format(n)]
        for e in engines:
            if e.name == "torch":
                continue  # tracemalloc cannot see torch's C++ allocations
            m = workloads.memory(e, n)
            lines.append(f"| {e.name} | {m['bytes_per_node']:,.0f} | {m['held_after_backward_per_node']:,.0f} |")
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
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--gc", choices=["on", "off"], default="on")
    p.add_argument("--only", help="comma-separated workloads: chain,wide,mlp,memory,floor,grader")
    p.add_argument("--markdown", help="also write the report to this file")
    args = p.parse_args(argv)
    report = run(args)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(report)


if __name__ == "__main__":
    main()
