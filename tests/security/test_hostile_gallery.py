"""The hostile gallery (``hostile_gallery.py``), graded as one class, once per isolation mode.

Each case must hold five promises: the attacked exercise scores 0; every other exercise
of that student and every classmate is graded exactly as without the attack (full marks, as
the honest classmates get); the grader exits normally with valid JSON; nothing is left on
disk (scratch folders, files in the shared folders, System V objects).  The ``uid+seccomp``
run simulates a kernel that refuses namespaces (``GRADE_ISOLATION``); it needs root, since
the fallback is a uid of its own per child.  The entries whose shape is the attack (links,
names) are refused or named by the grader before any child runs, whatever the mode: they are
in the class of the strongest mode this machine gives (``modes.strongest_here``).
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

import hostile_gallery as gallery
from hostile_gallery import CASES, HONEST, MARK, REPO, SYSV_KEYS, Case
from batches import own_cache
from modes import BEFORE_ANY_CHILD, one_class_per_mode, skip_unless, skip_unless_strongest, strongest_here

from grader.sandbox import uids

GRADE = [sys.executable, "-c", "from grader.cli.app import main; main()"]
SHARED = ("/tmp", "/var/tmp", "/dev/shm")
MODES = ("namespaces", "uid+seccomp")
PARENT_SIDE = ("links", "batch names")  # the kinds of entry the grader settles alone


def _sysv() -> list[str]:
    """System V objects with the gallery's keys, or owned by a child's uid."""
    low, high = uids.UID_BASE, uids.UID_BASE + uids.UID_COUNT
    lines = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as handle:
                rows = [line.split() for line in handle.readlines()[1:]]
        except OSError:
            continue
        uid_column = {"shm": 7, "msg": 7, "sem": 4}[kind]
        lines += [f"{kind} {row[0]} {row[1]}" for row in rows
                  if int(row[0]) in SYSV_KEYS or low <= int(row[uid_column]) < high]
    return sorted(lines)


def _marked() -> list[str]:
    found = []
    for folder in SHARED:
        try:
            found += [f"{folder}/{n}" for n in os.listdir(folder) if MARK in n]
        except OSError:
            pass
    return found


def _uid_owned() -> list[str]:
    """Entries of the shared folders owned by a uid of the reserved range (other than the
    scratch folders of graders running beside this test)."""
    found = []
    low, high = uids.UID_BASE, uids.UID_BASE + uids.UID_COUNT
    for folder in SHARED:
        try:
            for entry in os.scandir(folder):
                if (low <= entry.stat(follow_symlinks=False).st_uid < high
                        and not entry.name.startswith("grade-")):
                    found.append(entry.path)
        except OSError:
            pass
    return found


# Each mode's class is graded once, by one pytest-xdist worker (group ``hostile-gallery-MODE``),
# and the two modes' classes spread over the workers.  Each run compares the shared folders and
# System V objects before and after it: what it looks for is marked with its worker's pid
# (``MARK``), keyed with the gallery's keys, or owned by a child's uid, none of which a run
# that keeps its promises leaves behind, whatever runs beside it.
@pytest.fixture(scope="module", params=one_class_per_mode("hostile-gallery", MODES))
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           answers: Path) -> dict[str, Any]:
    mode = request.param
    skip_unless(mode)
    work = tmp_path_factory.mktemp(f"gallery-{mode.replace('+', '-')}")
    subs, out, scratch = work / "class" / "subs", work / "out", work / "tmp"
    scratch.mkdir()
    cases = [c for c in CASES if strongest_here(mode) or c.kind not in PARENT_SIDE]
    gallery.build_class(subs, cases)
    before = (_sysv(), _marked(), _uid_owned())
    env = {**os.environ, "GRADE_ISOLATION": mode, "TMPDIR": str(scratch),
           "GRADE_CACHE_DIR": str(own_cache(answers, work))}
    proc = subprocess.run([*GRADE, "batch", str(subs), "--out", str(out), "--exercises",
                           "ex01,ex02", "--jobs", "4"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    with open(out / "grades.csv", encoding="utf-8", newline="") as handle:
        rows = {unicodedata.normalize("NFC", r["student"]): r for r in csv.DictReader(handle)}
    return {"proc": proc, "out": out, "rows": rows, "scratch": scratch, "before": before,
            "after": (_sysv(), _marked(), _uid_owned()), "mode": mode, "cases": cases}


def _strict_json(path: Path) -> Any:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")
    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def test_the_grader_finishes_with_valid_json_and_leaves_nothing(graded: dict[str, Any]) -> None:
    proc = graded["proc"]
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = list((graded["out"] / "students").glob("*/results.json"))
    assert len(results) == len(graded["rows"]) >= len(graded["cases"]) + len(HONEST) - 1
    for path in results:
        _strict_json(path)
    assert graded["after"] == graded["before"]  # System V objects, marked files, child uids
    assert list(graded["scratch"].iterdir()) == []  # every scratch folder removed


def test_the_honest_classmates_get_full_marks(graded: dict[str, Any]) -> None:
    for name in HONEST:
        row = graded["rows"][name]
        assert (row["status"], row["detail"]) == ("ok", ""), row
        assert float(row["ex01"]) > 0 and float(row["ex02"]) > 0, row


def _full(graded: dict[str, Any], exercise: str) -> str:
    return graded["rows"][HONEST[0]][exercise]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.kind.split()[0]}-{c.name}")
def test_each_attack_is_contained(graded: dict[str, Any], case: Case) -> None:
    if case.kind in PARENT_SIDE:
        skip_unless_strongest(graded["mode"], BEFORE_ANY_CHILD)
    row = graded["rows"][unicodedata.normalize("NFC", case.row)]
    if case.kind == "batch names":
        _check_name(graded, case, row)
        return
    if case.whole_entry_refused:
        assert row["total"] == "0" and "symbolic link" in row["detail"], row
        return
    assert row["ex01"] == "0", row  # the attack earns nothing
    assert row["ex02"] == _full(graded, "ex02"), row  # and costs nothing else
    record = _strict_json(graded["out"] / "students" / _slug(graded, row) / "results.json")
    text = json.dumps(record, ensure_ascii=False)
    assert "\x1b" not in text and "\x9b" not in text and "\\ud8" not in text
    if case.kind == "links":
        assert "symbolic link" in row["detail"], row


def _slug(graded: dict[str, Any], row: dict[str, str]) -> str:
    for path in (graded["out"] / "students").glob("*/results.json"):
        record = json.loads(path.read_text(encoding="utf-8"))["extra_data"]["batch"]
        if unicodedata.normalize("NFC", record["student"]) == row["student"].removeprefix("'"):
            return path.parent.name
    raise AssertionError(f"no folder for {row['student']}")


def _check_name(graded: dict[str, Any], case: Case, row: dict[str, str]) -> None:
    out = graded["out"]
    assert (out / "grades.csv").read_text(encoding="utf-8").startswith("student,")
    assert (out / "report.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    assert {p.name for p in out.iterdir() if not p.name.startswith(".")} == {
        "grades.csv", "report.html", "students"}
    if case.student.endswith(".csv"):  # a single .py that names no exercise: one sentence
        assert row["status"] == "error" and "cannot tell which exercise" in row["detail"]
        return
    assert row["ex01"] == _full(graded, "ex01") and row["ex02"] == _full(graded, "ex02"), row
    if unicodedata.normalize("NFC", case.student) == "Jos\u00e9":
        twins = [r for r in graded["rows"] if r.startswith("Jos")]
        assert len(twins) == 2 and len(set(twins)) == 2  # two rows, told apart
