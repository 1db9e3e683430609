"""Instruction counts of the very phases the clock measures, under ``valgrind --tool=callgrind``.

Instruction counts do not move with the machine's load, so they back a time
ratio measured on a busy machine.  Each engine runs every workload once in a
child process under callgrind, with the workloads' laps calling ``os.getppid()``:
libc's ``getppid`` is called nowhere else in these runs, and callgrind is told to
dump (and zero) its counters each time it is entered (``--dump-before=getppid``),
so the k-th dump file holds the instructions between the (k-1)-th and the k-th
lap mark.  The child's string hashes are fixed (``PYTHONHASHSEED=0``): with random
ones, sets and dicts differ from run to run and so do the counts, by about 1%.  The child prints which phase each mark closes; the parent checks
that there are as many dumps as marks before it reads them.

``python -m benchmarks.callgrind ENGINE KEY...`` is that child (it needs no valgrind;
run alone it only prints the marks).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks.engines import ADAPTERS
from benchmarks.workloads import WORKLOADS

ROOT = Path(__file__).resolve().parents[1]
_MARK_FUNCTION = "getppid"
_OUT = "callgrind.out"

Key = tuple[str, str, str]  # (engine, workload key, phase)


class DumpLaps:
    """Laps that make callgrind dump its counters; ``marks`` says what each dump holds."""

    def __init__(self, workload: str) -> None:
        self.workload = workload
        self.marks: list[tuple[str, str] | None] = []  # (workload, phase), or None: untimed work

    def start(self) -> None:
        os.getppid()
        self.marks.append(None)

    def stop(self, phase: str) -> None:
        os.getppid()
        self.marks.append((self.workload, phase))


@dataclass(frozen=True)
class Instructions:
    """Instructions per (engine, workload, phase); ``unavailable`` says why there are none."""

    counts: dict[Key, int]
    unavailable: str | None = None

    def get(self, engine: str, workload: str, phase: str) -> int | None:
        return self.counts.get((engine, workload, phase))


def count(engines: list[str], keys: list[str], valgrind: str | None) -> Instructions:
    """Each engine's instruction counts for the workloads ``keys``, one callgrind child per engine."""
    if valgrind is None:
        return Instructions({}, "valgrind is not installed (apt-get install valgrind): no instruction counts")
    counts: dict[Key, int] = {}
    for engine in engines:
        with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as tmp:
            out = Path(tmp) / _OUT
            done = subprocess.run(
                [valgrind, "--tool=callgrind", f"--dump-before={_MARK_FUNCTION}", f"--callgrind-out-file={out}",
                 sys.executable, "-m", "benchmarks.callgrind", engine, *keys],
                cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
            )
            if done.returncode != 0:
                return Instructions(counts, f"the callgrind run of {engine} failed: {done.stderr.strip()[-500:]}")
            marks = json.loads(done.stdout.splitlines()[-1])
            dumps = sorted(Path(tmp).glob(f"{_OUT}.*"), key=lambda p: int(p.suffix[1:]))
            if len(dumps) != len(marks):
                return Instructions(counts, f"{engine}: {len(marks)} lap marks but {len(dumps)} callgrind dumps "
                                            f"(something else called {_MARK_FUNCTION}): counts not attributable")
            for mark, dump in zip(marks, dumps):
                if mark is not None:
                    counts[(engine, *mark)] = _total(dump)
    return Instructions(counts)


def _total(dump: Path) -> int:
    for line in dump.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(f"{dump}: no totals line")


def child(engine_name: str, keys: list[str]) -> list[tuple[str, str] | None]:
    """Run the workloads ``keys`` once on one engine, marking each lap; the marks, in order."""
    engine = ADAPTERS[engine_name]()  # the other engine is not imported: its import is not counted
    if engine is None:
        raise SystemExit(f"{engine_name} is not installed (pip install -e '.[bench]')")
    marks: list[tuple[str, str] | None] = []
    for workload in WORKLOADS:
        if workload.key in keys:
            gc.collect()
            laps = DumpLaps(workload.key)
            workload.run(engine, laps)
            marks += laps.marks
    return marks


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1], sys.argv[2:])))
