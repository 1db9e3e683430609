"""What isolating the sandboxed children costs: start-up per child, and batch throughput.

``python -m benchmarks.isolation`` measures, interleaving the modes so that other work on the
machine weighs on each alike:

* start-up: one child that imports an empty submission and runs no test, per isolation mode
  (``GRADE_ISOLATION``), wall-clock and CPU milliseconds (the grader's and the child's);
* batch: ``grade batch`` on a class of correct submissions, per mode, and, with ``--baseline
  DIR`` (a checkout of the grader before isolation, e.g. ``git archive a3b91a3 | tar -x -C
  DIR``), the same class graded by that tree: wall-clock and CPU seconds per submission.

The ``uid+seccomp`` mode needs root; modes the machine does not give are skipped.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = ("namespaces", "uid+seccomp", "limits-only")
EXERCISES = ("ex01", "ex02", "ex03", "ex05", "ex06")
_TESTS = "class E:\n    module = 'empty'\n    diagram_probe = None\nEXERCISE = E()\n"


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _usable(mode: str) -> bool:
    from grader.sandbox import isolation, uids

    os.environ[isolation.ENV] = mode
    try:
        isolation.current()
        return True
    except uids.IsolationUnavailable:
        return False


def startup(rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall ms, CPU ms) of one empty child, per usable mode."""
    from grader.sandbox.run import run_child
    from grader.spec.limits import Limits

    modes = [m for m in MODES if _usable(m)]
    wall: dict[str, list[float]] = {m: [] for m in modes}
    cpu: dict[str, list[float]] = {m: [] for m in modes}
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.py"
        empty.write_text("")
        for _ in range(rounds):
            for mode in modes:
                os.environ["GRADE_ISOLATION"] = mode
                t0, c0 = time.perf_counter(), _cpu_children() + _cpu_self()
                report = run_child(submission=empty, module="empty", tests_module="bench_tests",
                                   tests_source=_TESTS, tests=[], limits=Limits(time=20.0),
                                   diagram=False)
                assert report.done, (mode, report)
                wall[mode].append((time.perf_counter() - t0) * 1000)
                cpu[mode].append((_cpu_children() + _cpu_self() - c0) * 1000)
    return {m: (statistics.median(wall[m]), statistics.median(cpu[m])) for m in modes}


def _make_class(folder: Path, students: int) -> None:
    from grader.course.catalog import load

    for i in range(students):
        entry = folder / f"student{i:03d}"
        entry.mkdir(parents=True)
        for exercise in EXERCISES:
            name = f"{load(exercise).spec.module}.py"
            (entry / name).write_bytes((ROOT / "solutions" / name).read_bytes())


def batch(students: int, rounds: int, baseline: Path | None) -> dict[str, tuple[float, float]]:
    """Median (wall s, CPU s) per submission of ``grade batch``, per mode (and baseline)."""
    runs = [(m, ROOT) for m in MODES if _usable(m)] + ([("before", baseline)] if baseline else [])
    wall: dict[str, list[float]] = {name: [] for name, _ in runs}
    cpu: dict[str, list[float]] = {name: [] for name, _ in runs}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _make_class(work / "class", students)
        for r in range(rounds):
            for name, tree in runs:
                env = {**os.environ, "GRADE_CACHE_DIR": str(work / f"cache-{name}"),
                       "PYTHONPATH": str(tree), "GRADE_ISOLATION": name}
                if name == "before":
                    env.pop("GRADE_ISOLATION")
                out = work / f"out-{name}-{r}"
                entry = "grader.cli" if name == "before" else "grader.cli.app"
                args = [sys.executable, "-c", f"from {entry} import main; main()"]
                # the expected answers first, outside the measurement
                subprocess.run([*args, "batch", str(work / "class"), "--out", str(out) + "-warm",
                                "--exercises", ",".join(EXERCISES)], env=env, cwd=tree,
                               capture_output=True, check=True)
                t0, c0 = time.perf_counter(), _cpu_children()
                subprocess.run([*args, "batch", str(work / "class"), "--out", str(out),
                                "--exercises", ",".join(EXERCISES)], env=env, cwd=tree,
                               capture_output=True, check=True)
                wall[name].append((time.perf_counter() - t0) / students)
                cpu[name].append((_cpu_children() - c0) / students)
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in wall}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.isolation", description=__doc__)
    p.add_argument("--rounds", type=int, default=15, help="start-up children per mode")
    p.add_argument("--students", type=int, default=20, help="submissions in the batch")
    p.add_argument("--batch-rounds", type=int, default=2)
    p.add_argument("--baseline", type=Path, help="a checkout of the grader before isolation")
    args = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    print("| mode | child start-up, wall (ms) | CPU (ms) |\n|---|---|---|")
    for mode, (wall, cpu) in startup(args.rounds).items():
        print(f"| {mode} | {wall:.0f} | {cpu:.0f} |")
    print(f"\n| batch of {args.students} x {len(EXERCISES)} exercises | wall per submission (s) "
          "| CPU per submission (s) |\n|---|---|---|")
    for name, (wall, cpu) in batch(args.students, args.batch_rounds, args.baseline).items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
