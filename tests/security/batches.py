"""Grading one class of ex01 files (or of several exercises) with ``grade batch``, as the
security tests do, and reading back what each student got."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GRADE = [sys.executable, "-c", "from grader.cli.app import main; main()"]
MODES = ("namespaces", "uid+seccomp", "limits only")


def strings(value: Any) -> list[str]:
    """Every string in a parsed results.json (where a run's printed output is)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def batch(course: Path, entries: dict[str, str], work: Path, command: list[str] = GRADE,
          **env: str) -> subprocess.CompletedProcess[str]:
    """``grade batch`` of ``entries`` (student: ex01 source) from the course folder ``course``
    (``command`` runs ``grade``)."""
    files = {student: {"ex01_graph.py": source} for student, source in entries.items()}
    return batch_files(course, files, ("ex01",), work, command, **env)


def batch_files(course: Path, entries: dict[str, dict[str, str]], exercises: tuple[str, ...],
                work: Path, command: list[str] = GRADE, **env: str) -> subprocess.CompletedProcess[str]:
    """``grade batch`` of ``exercises`` for ``entries`` (student: file name: source)."""
    subs = work / "subs"
    for student, files in entries.items():
        (subs / student).mkdir(parents=True)
        for name, source in files.items():
            (subs / student / name).write_text(source)
    return subprocess.run([*command, "batch", str(subs), "--out", str(work / "out"),
                           "--exercises", ",".join(exercises), "--jobs", "4"], cwd=course,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=600)


def graded(work: Path) -> dict[str, dict[str, Any]]:
    """Per student: the grades.csv row and everything its results.json says, as ``text``."""
    out = work / "out"
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        rows = {r["student"]: dict(r) for r in csv.DictReader(handle)}
    for path in (out / "students").glob("*/results.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        student = record["extra_data"]["batch"]["student"]
        rows[student]["text"] = "\n".join(strings(record))
    return rows


def own_cache(answers: Path, work: Path) -> Path:
    """``work/cache``: a copy of the run's cache of expected answers (``answers`` in
    tests/conftest.py), for one hostile class alone.  What its students write into the cache
    reaches no other test, and the reference solutions are not run again for each class and
    mode (an entry is found by the hashes of what it depends on, never by the mode)."""
    return Path(shutil.copytree(answers, work / "cache"))


def graded_class(mode: str, tmp_path_factory: Any, name: str, entries: dict[str, dict[str, str]],
                 answers: Path, exercises: tuple[str, ...] = ("ex01",), **env: str) -> dict[str, dict[str, Any]]:
    """``entries`` (student: file name: source) graded as one class in ``mode`` by ``grade
    batch`` from the repository's course, in a folder of its own with a cache of its own
    (``own_cache``), with ``env`` added to the environment; what ``graded`` reads."""
    work: Path = tmp_path_factory.mktemp(f"{name}-{mode.replace(' ', '-').replace('+', '-')}")
    proc = batch_files(REPO, entries, exercises, work, GRADE_ISOLATION=mode,
                       GRADE_CACHE_DIR=str(own_cache(answers, work)), **env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return graded(work)
