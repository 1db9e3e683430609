"""Helpers for the course autograder's tests: the real course, the ``grade`` command in a
child process, and the check that grades.csv says what the per-student files say."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Callable

from grader.course import catalog
from grader.course.records import read_record

REPO = Path(__file__).resolve().parents[2]
GRADE = [sys.executable, "-c", "from grader.cli.app import main; main()"]
BUNDLED = ("ex01", "ex03")  # the exercises of the test Gradescope bundle
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def module_of(exercise_id: str) -> str:
    return catalog.load(exercise_id).spec.module


def solution(exercise_id: str) -> Path:
    return REPO / "solutions" / f"{module_of(exercise_id)}.py"


def stub(exercise_id: str) -> Path:
    return REPO / "exercises" / f"{module_of(exercise_id)}.py"


def grade_env(cache: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "GRADE_CACHE_DIR": str(cache), **extra}


def grade(*args: str, cache: Path, cwd: Path = REPO, timeout: float = 120,
          **env: str) -> subprocess.CompletedProcess[str]:
    """``grade ARGS`` in a child process (as an instructor runs it)."""
    return subprocess.run([*GRADE, *args], cwd=cwd, env=grade_env(cache, **env),
                          capture_output=True, text=True, timeout=timeout)


def csv_matches_files(out: Path) -> list[dict[str, str]]:
    """Assert that OUT/grades.csv has one row per student folder, with the same scores, total
    and status as that student's results.json; return the rows."""
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    records = {}
    students = out / "students"
    for folder in students.iterdir() if students.is_dir() else ():
        student = folder.is_dir() and not folder.name.startswith(".")
        record = read_record(folder) if student else None
        if record is not None:
            records[record["student"]] = record
    assert sorted(r["student"].removeprefix("'") for r in rows) == sorted(records)
    for row in rows:
        record = records[row["student"].removeprefix("'")]
        scores = {e["exercise"]: e["score"] for e in record["exercises"]}
        for exercise_id, score in scores.items():
            assert float(row[exercise_id]) == score
        assert float(row["total"]) == sum(scores.values())
        assert row["status"] == record["status"]
    return rows


def check_schema(data: dict[str, Any]) -> None:
    """Gradescope's results.json contract (the fields and types Gradescope reads)."""
    assert type(data["score"]) in (int, float)
    assert type(data["execution_time"]) in (int, float)
    assert data["stdout_visibility"] == "hidden"
    assert data["tests"]
    for test in data["tests"]:
        assert type(test["name"]) is str and test["name"]
        assert re.fullmatch(r"\d+\.\d+", test["number"])
        assert type(test["score"]) in (int, float) and type(test["max_score"]) in (int, float)
        assert test["status"] in ("passed", "failed")
        assert type(test["output"]) is str
        assert test["visibility"] in VISIBILITIES
    assert data["score"] == sum(t["score"] for t in data["tests"])


def hidden_texts(exercise_id: str) -> list[str]:
    texts = []
    for test in catalog.load(exercise_id).spec.tests:
        if not test.public:
            texts += [test.name, test.feedback, *test.key_feedback.values()]
    return texts


def visible(data: dict[str, Any]) -> str:
    """Everything a student sees before grades are published."""
    return data["output"] + "".join(t["name"] + t["output"] for t in data["tests"]
                                    if t["visibility"] == "visible")


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in data["tests"]}


def run_standin(bundle: Path, setup: Callable[[Path, Path], None], **env: str) -> dict[str, Any]:
    """A fresh stand-in root for Gradescope's /autograder (world-searchable, as /autograder is,
    so that an unprivileged child can reach the engine), ``bundle`` unpacked in it,
    ``setup(submission_folder, root)`` filling the submission; run_autograder runs.  The parsed
    results.json, with what it printed (``_stdout``) and the root (``_root``, the caller's to remove)."""
    root = Path(tempfile.mkdtemp(prefix="autograder-"))
    os.chmod(root, 0o755)
    for name in ("source", "submission", "results"):
        (root / name).mkdir()
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    setup(root / "submission", root)
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")],
                          env={**os.environ, "AUTOGRADER_ROOT": str(root),
                               "GRADE_PYTHON": sys.executable, **env},
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0
    data = json.loads((root / "results" / "results.json").read_text())
    check_schema(data)
    data["_stdout"] = proc.stdout + proc.stderr
    data["_root"] = root
    return data
