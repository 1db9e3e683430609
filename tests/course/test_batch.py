"""``grade batch``: malformed entries get a status and a zero, an interrupted batch resumes with
only what is missing or changed, and grades.csv always says what the per-student files say."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Iterator

import pytest
from coursekit import GRADE, REPO, csv_matches_files, grade, grade_env, solution

# An interrupted class: two students graded at once, then two whose submissions wait at import
# until the import's share of the clock runs out: the batch is still grading when the signal
# lands, whatever the machine's load (each waiting student holds it there for that whole share).  Their answers are put right
# before the rerun, which grades them as the students it never finished.
FAST, WAITING = 2, 2
WAIT = "\nimport time\ntime.sleep(600)\n"
# C's stack overflows (hashing a tuple nested a million deep recurses in C, with no recursion
# check): a SIGSEGV without ctypes, in a fraction of a second of CPU, so that a loaded machine
# cannot stop it at the time limit first (a nested list's repr took seconds).
CRASH = "nested = ()\nfor _ in range(10 ** 6):\n    nested = (nested,)\nhash(nested)\n"


def _class_of(folder: Path, n: int, extra: str = "", first: int = 0) -> list[str]:
    names = [f"student{i:02d}" for i in range(first, first + n)]
    for name in names:
        (folder / name).mkdir(parents=True)
        (folder / name / solution("ex01").name).write_text(solution("ex01").read_text() + extra)
    return names


def _statuses(out: Path) -> dict[str, tuple[str, str]]:
    return {r["student"].removeprefix("'"): (r["status"], r["detail"])
            for r in csv_matches_files(out)}


def test_malformed_entries_get_a_clear_status_and_zero(tmp_path: Path, cache: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    good = solution("ex01")
    for name in ("alice", "José García", "name with spaces", "<img src=x onerror=alert(1)>",
                 "=HYPERLINK(1)"):
        (subs / name).mkdir()
        shutil.copy(good, subs / name)
    (subs / "empty").mkdir()
    with zipfile.ZipFile(subs / "evil.zip", "w") as archive:
        archive.writestr("../../ex01_graph.py", "x = 1\n")
    with zipfile.ZipFile(subs / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("ex01_graph.py", bytes(80 << 20))
    (subs / "latin").mkdir()
    (subs / "latin" / good.name).write_bytes("x = 'café'\n".encode("latin-1"))
    (subs / "garbage.zip").write_bytes(b"not a zip at all")
    (subs / "notes.txt").write_text("not a submission")
    out = tmp_path / "out"
    run = grade("batch", str(subs), "--out", str(out), "--exercises", "ex01", cache=cache)
    assert run.returncode == 0, run.stderr
    statuses = _statuses(out)
    assert len(statuses) == 11
    for name in ("alice", "José García", "name with spaces", "<img src=x onerror=alert(1)>",
                 "=HYPERLINK(1)"):
        assert statuses[name] == ("ok", ""), name
    assert statuses["empty"] == ("error", "empty: the folder is empty")
    assert "holds a path outside the archive" in statuses["evil"][1]
    assert "refused as a zip bomb" in statuses["bomb"][1]
    assert "not UTF-8 text" in statuses["latin"][1]
    assert "not a readable zip" in statuses["garbage"][1]
    assert statuses["notes.txt"] == ("error", "notes.txt is not a folder, a .py or .ipynb file "
                                              "or a .zip")
    rows = {r["student"]: r for r in csv_matches_files(out)}
    for name in ("empty", "evil", "bomb", "latin", "garbage", "notes.txt"):
        assert rows[name]["ex01"] == "0" and rows[name]["status"] == "error"
    assert "'=HYPERLINK(1)" in rows  # a spreadsheet must not run it
    report = (out / "report.html").read_text()
    assert "&lt;img src=x onerror=alert(1)&gt;" in report and "<img src=x" not in report
    assert "<script" not in report and report.count("<svg class=\"diagram\"") == 5
    assert report.count("<symbol") == 1  # five identical diagrams, stored once
    pages = re.findall(r'<a href="([^"]+/backward\.html)">watch this backward run', report)
    assert len(pages) == 5 and all((out / html.unescape(p)).is_file() for p in pages)
    assert {p.name for p in out.iterdir() if not p.name.startswith(".")} == {
        "grades.csv", "report.html", "students"}
    for folder in (out / "students").iterdir():
        if folder.is_dir() and not folder.name.startswith("."):
            assert folder.name.isascii() and " " not in folder.name
            data = json.loads((folder / "results.json").read_text())
            assert data["stdout_visibility"] == "hidden" and data["tests"]


def _wait_for_results(out: Path, count: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while len(list(out.glob("students/*/results.json"))) < count:
        assert proc.poll() is None, "the batch ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.05)


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temporary folder for the children's scratch directories, which a killed batch
    cannot remove (searchable by all, as /tmp is, for children running unprivileged)."""
    folder = Path(tempfile.mkdtemp(prefix="grade-test-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_an_interrupted_batch_resumes_with_only_what_is_missing(tmp_path: Path, cache: Path,
                                                                scratch: Path,
                                                                sig: signal.Signals) -> None:
    subs, out = tmp_path / "subs", tmp_path / "out"
    names = _class_of(subs, FAST) + _class_of(subs, WAITING, WAIT, first=FAST)
    args = ["batch", str(subs), "--out", str(out), "--exercises", "ex01", "--jobs", "1"]
    proc = subprocess.Popen([*GRADE, *args], cwd=REPO, env=grade_env(cache, TMPDIR=str(scratch)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_results(out, FAST, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 130), err
    done = {p.parent.name for p in out.glob("students/*/results.json")}
    assert FAST <= len(done) < len(names)
    for name in set(names) - done:  # the students still waiting: their answers put right
        shutil.copy(solution("ex01"), subs / name)
    if sig != signal.SIGKILL:  # a clean stop leaves the CSV in step at once
        assert {r["student"] for r in csv_matches_files(out)} == done
    results = out / "students"
    mtimes = {name: (results / name / "results.json").stat().st_mtime_ns for name in done}
    rerun = grade(*args, cache=cache)
    assert rerun.returncode == 0, rerun.stderr
    assert f"graded {len(names) - len(done)}, unchanged {len(done)}" in rerun.stdout
    assert {name: (results / name / "results.json").stat().st_mtime_ns for name in done} == mtimes
    rows = csv_matches_files(out)
    assert sorted(r["student"] for r in rows) == names
    assert all(r["status"] == "ok" and r["ex01"] == r["total"] != "0" for r in rows)
    assert not (out / ".staging").exists() or not any((out / ".staging").iterdir())


def test_a_changed_submission_is_graded_again_and_a_removed_one_leaves_the_csv(
        tmp_path: Path, cache: Path) -> None:
    subs, out = tmp_path / "subs", tmp_path / "out"
    _class_of(subs, 3)
    args = ["batch", str(subs), "--out", str(out), "--exercises", "ex01"]
    assert grade(*args, cache=cache).returncode == 0
    wrong = "def backprop(w, x):\n    return 1, 2\n"
    (subs / "student01" / solution("ex01").name).write_text(wrong)
    shutil.rmtree(subs / "student02")
    rerun = grade(*args, cache=cache)
    assert "graded 1, unchanged 1" in rerun.stdout and "moved 1 result" in rerun.stdout
    rows = {r["student"]: r for r in csv_matches_files(out)}
    assert set(rows) == {"student00", "student01"} and rows["student01"]["ex01"] == "0"
    assert (out / ".stale" / "student02" / "results.json").is_file()


def test_what_a_row_says_about_one_file_a_syntax_error_and_a_crash(tmp_path: Path, cache: Path) -> None:
    subs = tmp_path / "subs"
    (subs / "alice").mkdir(parents=True)
    shutil.copy(solution("ex01"), subs / "alice")
    (subs / "alice" / solution("ex03").name).write_text("def backward_retaining(:\n    pass\n")
    shutil.copy(solution("ex03"), subs / "bob_ex03.py")  # one file for a batch of two exercises
    (subs / "carol").mkdir()
    (subs / "carol" / solution("ex03").name).write_text(CRASH)
    out = tmp_path / "out"
    run = grade("batch", str(subs), "--out", str(out), "--exercises", "ex01,ex02,ex03", cache=cache)
    assert run.returncode == 0, run.stderr
    statuses = _statuses(out)
    assert statuses["alice"][1].startswith("ex03 SyntaxError at line 1: invalid syntax; ")  # as the report says
    assert statuses["bob_ex03"][1] == ("bob_ex03.py is a single file, graded as ex03 only: for several "
                                       "exercises hand in one folder or .zip per student, with "
                                       "exNN_<topic>.py files")
    carol = json.loads((out / "students" / "carol" / "results.json").read_text())
    said = {t["output"] for t in carol["tests"] if t["name"].startswith("ex03: ")}
    assert any("SIGSEGV: an invalid memory access" in s for s in said)
    assert not any("recursion" in s for s in said)
    report = html.unescape((out / "report.html").read_text())
    assert report.count("not in bob_ex03.py") == 1  # bob's other exercises: one line together
    assert "ex01, ex02</b>: 0/29, not graded: not in bob_ex03.py" in report


def test_a_summary_names_the_exercises_nobody_handed_in() -> None:
    from grader.course.batch import Summary
    from grader.course.records import Row
    from grader.judge.grading import NOT_GRADED, RAN, UNTOUCHED

    def row(outcomes: dict[str, str]) -> Row:
        return Row("ann", "ann", {}, "ok", "", [], outcomes)

    summary = Summary(2, 0, [row({"ex01": RAN, "ex02": NOT_GRADED, "ex03": NOT_GRADED}),
                             row({"ex01": NOT_GRADED, "ex02": UNTOUCHED, "ex03": NOT_GRADED})], [])
    assert summary.handed_in_by_nobody(["ex01", "ex02", "ex03"]) == ["ex03"]
    assert Summary(0, 0, [], []).handed_in_by_nobody(["ex01"]) == []


def test_a_note_names_a_diagram_by_its_path_in_the_student_folder(tmp_path: Path) -> None:
    """A student's folder is assembled in a staging folder and renamed into place: the note beside
    difference.svg names it as the folder's diagrams list it, never by the staging path, gone."""
    from grader.course.entries import Entry
    from grader.course.records import read_record, write_record
    from grader.judge.grading import ExerciseResult

    staging = tmp_path / ".staging" / "ann.x1"
    drawn = staging / "ex01" / "difference.svg"
    drawn.parent.mkdir(parents=True)
    drawn.write_text("<svg/>")
    result = ExerciseResult("ex01", "graph", [], diagrams=[str(drawn)],
                            notes=[f"{drawn}: your graph in the public test 'build_graph'"])
    write_record(staging, Entry(tmp_path / "ann", "ann", "ann", "ann"), "k", "ok", "", 0.1, [result], {"ex01"})
    (exercise,) = read_record(staging)["exercises"]
    assert exercise["diagrams"] == ["ex01/difference.svg"]
    assert exercise["notes"] == ["ex01/difference.svg: your graph in the public test 'build_graph'"]
