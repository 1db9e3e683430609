"""Batch grading throughput: ``python -m benchmarks.batch`` prints submissions per minute.

It writes the generated class of ``benchmarks.grading.make_class`` (the same seed, so the same
mix of correct, partly wrong and hostile entries), fills the expected-answer cache with a
one-student batch, then times ``grade batch`` over the class as an instructor runs it (a child
process).  Two figures:

* **submissions per minute (wall clock)**: what the instructor waits for, on this machine now;
* **CPU seconds per submission**: the CPU time of the grader and of every process it started
  (sandboxed children and their forks, the diagram renderer), which does not depend on what
  else the machine runs; ``60 * cores / cpu`` is the rate the cores allow when the grader has
  them to itself.  This process becomes a child subreaper, so that a child killed before it
  reaped its own (a namespaced child's forks) is reaped here and its CPU time counted.

``--tree DIR`` grades with another checkout of the project (e.g. ``git worktree add`` of an
older commit) for a before/after figure on the same class.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.grading import ROOT, make_class

_PR_SET_CHILD_SUBREAPER = 36
_REAP_SECONDS = 10.0


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _become_subreaper() -> None:
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _reap_orphans() -> None:
    """Wait for the orphans handed to this process (see the module doc), for a while."""
    deadline = time.monotonic() + _REAP_SECONDS
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)


def grade_batch(tree: Path, submissions: Path, out: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the whole process tree, first line printed) of one
    ``grade batch`` run by the checkout ``tree``."""
    command = [sys.executable, "-c", "from grader.cli.app import main; main()",
               "batch", str(submissions), "--out", str(out)]
    cpu = _cpu_of_children()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env={**env, "PYTHONPATH": str(tree)},
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wall = time.perf_counter() - start
    _reap_orphans()
    if done.returncode not in (0, 1):
        raise RuntimeError(f"grade batch exited with {done.returncode}")
    summary = next((line for line in done.stdout.splitlines() if line.startswith("graded")), "")
    return wall, _cpu_of_children() - cpu, summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=40, help="size of the class (40)")
    parser.add_argument("--seed", type=int, default=2024, help="the class generator's seed")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout that grades")
    args = parser.parse_args(argv)
    _become_subreaper()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="grade-batch-bench-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "GRADE_CACHE_DIR": str(work / "cache")}
        warm = work / "warm"
        (warm / "solutions").mkdir(parents=True)
        for path in (ROOT / "solutions").glob("ex*.py"):
            shutil.copy(path, warm / "solutions" / path.name)
        grade_batch(args.tree, warm, work / "warm-out", env)  # the expected answers, cached
        classroom = work / "class"
        classroom.mkdir()
        kinds = make_class(classroom, args.students, args.seed)
        print(f"grading {args.students} generated submissions with {args.tree} "
              "(a few minutes)...", file=sys.stderr, flush=True)
        wall, cpu, summary = grade_batch(args.tree, classroom, work / "out", env)
    n = args.students
    mix = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{n / wall * 60:.1f} submissions per minute (wall clock, {cores} cores, "
          f"load average {load:.1f} at the end)")
    print(f"{cpu / n:.2f} s of CPU per submission, i.e. {60 * cores * n / cpu:.1f} submissions "
          f"per minute on {cores} cores given to the grader alone")
    print(f"class: {n} generated submissions (seed {args.seed}): {mix}; {summary}; "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU; tree {args.tree}")


if __name__ == "__main__":
    main()
