"""``grade batch``: grade a whole class on one machine, resumably, one folder per student.

SUBMISSIONS holds one entry per student: a folder, a single ``.py`` or a ``.zip``.  For each
student the batch writes ``OUT/<student>/results.json`` (Gradescope's schema; the batch's own
record is in its ``extra_data``) and the diagrams under ``OUT/<student>/<exNN>/``, then keeps
``OUT/grades.csv`` and, at the end, ``OUT/report.html`` in step with them.

Nothing is lost and nothing is graded twice:

* a student's folder is assembled in ``OUT/.staging`` and renamed into place only when
  complete, so ``OUT/<student>/`` is always a whole result or absent;
* each result carries a key: the hash of the entry's content, of the selected exercises' test
  modules and of their expected answers.  A rerun grades only the students whose folder is
  missing or whose key changed (a new submission, a fixed test), and reuses the rest;
* ``grades.csv`` is rewritten (atomically) from those results after every student, and at the
  start of every run, so after a crash it is stale at most until the next run.

Students are graded on ``jobs`` threads (two per core by default), each student's exercises in
one sandboxed child that runs each exercise in a process of its own (``grader.sandbox.session``),
forked from the batch's fork server (``grader.sandbox.forkserver``, ended with the batch):
the parent only waits, judges and writes, and one exercise's hang or bomb costs only that
exercise's own limits.  Ctrl-C,
SIGTERM and SIGHUP kill the running children at once and leave every finished student on disk.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import hashlib
import io
import json
import os
import shutil
import signal
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from grader.course.catalog import LoadedExercise
from grader.course.entries import BatchError, Entry, entry_hash, find_entries
from grader.course.folder import NamedCourse, in_parallel
from grader.course.intake import Intake, collect
from grader.course.records import FORMAT, Row, read_record, row_of, student_status, write_record
from grader.i18n import _
from grader.judge.grading import NOT_GRADED, ExerciseResult, zero
from grader.judge.reference import Expected, NoExpected
from grader.judge.status import ERROR
from grader.sandbox import exposure
from grader.sandbox.launcher import Launcher

CSV_NAME, REPORT_NAME = "grades.csv", "report.html"
STAGING, TRASH, STALE = ".staging", ".trash", ".stale"
STUDENTS = "students"  # OUT/students/<slug>/: never beside grades.csv and report.html
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_POLL = 0.2  # seconds between the grading loop's looks at a stop signal while children run


@dataclass
class Summary:
    graded: int
    reused: int
    rows: list[Row]
    stale: list[str]
    interrupted: bool = False

    def handed_in_by_nobody(self, ids: list[str]) -> list[str]:
        """The exercises of ``ids`` no student has a file for: a course that handed out some
        exercises and graded all gets a column of zeros for each of the others."""
        return [i for i in ids
                if self.rows and all(row.outcomes.get(i) == NOT_GRADED for row in self.rows)]


# --- entries ------------------------------------------------------------------------------


def exercises_key(exercises: list[LoadedExercise], expected: dict[str, Expected]) -> str:
    """What, besides the entry, decides a student's grades: tests and expected answers."""
    digest = hashlib.sha256(f"format {FORMAT}\0".encode())
    for ex in exercises:
        answers = expected[ex.spec.id]
        digest.update(ex.spec.id.encode() + b"\0" + ex.source.encode() + b"\0")
        digest.update(json.dumps([answers.observations, answers.broken], sort_keys=True).encode())
    return digest.hexdigest()


# --- one student --------------------------------------------------------------------------


@dataclass
class _Student:
    entry: Entry
    key: str
    staging: Path
    workdir: tempfile.TemporaryDirectory[str]
    intake: Intake
    started: float
    results: dict[str, ExerciseResult] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


# --- the batch ----------------------------------------------------------------------------


def default_jobs() -> int:
    """Two children per core: a child spends part of its life starting up, waiting on its
    pipes or sleeping (a hung submission), and a second one per core fills those gaps
    (measured: about 25% more submissions per minute than one per core)."""
    return 2 * (os.cpu_count() or 1)


class Batch:
    """One run of ``grade batch`` (see the module doc)."""

    def __init__(self, course: NamedCourse, exercises: list[LoadedExercise], submissions: Path,
                 out: Path, *, jobs: int | None = None, launcher: Launcher | None = None) -> None:
        self.launcher = launcher or Launcher(forking=True)
        # no diagram drawn early: that overlaps drawing with a child where a core would idle,
        # and a batch keeps every core busy (it would only add the copying of the files)
        self.course = dataclasses.replace(course, spawn=self.launcher.spawn, solutions_only=True,
                                          settled={}, draw_early=False)
        exposure.refuse(course.secrets())
        self.exercises = exercises
        self.ids = [ex.spec.id for ex in exercises]
        self.modules = {ex.spec.id: ex.spec.module for ex in exercises}
        self.submissions = submissions
        self.out = out
        self.students = out / STUDENTS
        self.jobs = max(1, jobs or default_jobs())
        self.rows: dict[str, Row] = {}
        self.entries: list[Entry] = []

    # -- preparing

    def expected(self) -> dict[str, Expected]:
        """Every exercise's expected answers, before any student runs (a solution never runs
        beside a submission), settled for the whole run; raises BatchError when one cannot be
        known."""
        def one(ex: LoadedExercise) -> Expected:
            return self.course.expected(ex)

        try:
            answers = in_parallel([lambda ex=ex: one(ex) for ex in self.exercises], self.jobs)
        except NoExpected as exc:
            raise BatchError(str(exc)) from None
        settled = {ex.spec.id: a for ex, a in zip(self.exercises, answers)}
        self.course.settled.update(settled)  # every student is graded against these
        return settled

    def plan(self, key: str) -> tuple[list[tuple[Entry, str]], list[str]]:
        """(entries to grade with their keys, names of stale folders moved away); loads the
        rows of the students whose results are up to date."""
        for name in (STAGING, TRASH):
            shutil.rmtree(self.out / name, ignore_errors=True)
        self.entries = find_entries(self.submissions, self.out)
        todo = []
        for entry in self.entries:
            entry_key = hashlib.sha256(f"{entry_hash(entry.path)}\0{key}".encode()).hexdigest()
            record = read_record(self.students / entry.slug)
            if record is not None and record.get("key") == entry_key:
                self.rows[entry.slug] = row_of(record)
            else:
                todo.append((entry, entry_key))
        return todo, self._move_stale()

    def _move_stale(self) -> list[str]:
        """Results of entries no longer in SUBMISSIONS go to OUT/.stale (kept, not listed)."""
        current = {e.slug for e in self.entries}
        moved = []
        if not self.students.is_dir():
            return []
        for folder in sorted(self.students.iterdir()):
            if folder.name.startswith(".") or folder.name in current or not folder.is_dir():
                continue
            if read_record(folder) is not None:
                target = self.out / STALE / folder.name
                shutil.rmtree(target, ignore_errors=True)
                target.parent.mkdir(exist_ok=True)
                os.replace(folder, target)
                moved.append(folder.name)
        return moved

    # -- grading

    def _start(self, entry: Entry, key: str) -> _Student:
        staging = Path(tempfile.mkdtemp(prefix=f"{entry.slug}.", dir=self.out / STAGING))
        workdir = tempfile.TemporaryDirectory(prefix="entry-")
        single = self.ids[0] if len(self.ids) == 1 else None
        found = collect(entry.path, self.modules, Path(workdir.name), shown=entry.label,
                        single=single)
        self.course.shown.update(found.shown)
        return _Student(entry, key, staging, workdir, found, time.monotonic())

    def _grade_student(self, student: _Student) -> dict[str, ExerciseResult]:
        """Every exercise the student handed in, one sandboxed child for all of them."""
        jobs = [(ex, student.intake.files[ex.spec.id], student.staging / ex.spec.id)
                for ex in self.exercises if ex.spec.id in student.intake.files]
        results = self.course.grade_many(jobs)
        return {ex.spec.id: result for (ex, _, _), result in zip(jobs, results)}

    def _finish(self, student: _Student) -> Row:
        """Write the student's folder atomically and return their row."""
        found = student.intake
        results = []
        for ex in self.exercises:
            result = student.results.get(ex.spec.id)
            if result is None:
                why = found.error or found.problems.get(ex.spec.id) or (
                    _("not in {entry}", entry=student.entry.label) if found.one_file else
                    _("no file {module}.py (or {id}_*.py) in {entry}", module=ex.spec.module,
                      id=ex.spec.id, entry=student.entry.label))
                result = zero(ex, ERROR, why)
            results.append(result)
        status, detail = student_status(found, results, student.failures, self.ids,
                                        student.entry.label)
        row = write_record(student.staging, student.entry, student.key, status, detail,
                           time.monotonic() - student.started, results, set(student.results))
        self._install(student.staging, self.students / student.entry.slug)
        for path in found.shown:
            self.course.shown.pop(path, None)
        student.workdir.cleanup()
        return row

    def _install(self, staging: Path, final: Path) -> None:
        if final.exists():
            trash = Path(tempfile.mkdtemp(prefix=f"{final.name}.", dir=self.out / TRASH))
            os.replace(final, trash / final.name)
            os.replace(staging, final)
            shutil.rmtree(trash, ignore_errors=True)
        else:
            os.replace(staging, final)

    def grade(self, todo: list[tuple[Entry, str]], on_done: Callable[[Row], None],
              stop: Stop | None = None) -> None:
        """Grade ``todo``; ``on_done(row)`` after each student is safely on disk.  A ``stop``
        that a signal set ends it (KeyboardInterrupt) at the next look, every ``_POLL`` s."""
        stop = stop or Stop()
        (self.out / STAGING).mkdir(parents=True, exist_ok=True)
        self.students.mkdir(exist_ok=True)
        (self.out / TRASH).mkdir(parents=True, exist_ok=True)
        pending = deque(todo)
        running: dict[Future[dict[str, ExerciseResult]], _Student] = {}
        capacity = self.jobs * 2  # students started (intake done) ahead of a free thread
        with ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="grade") as pool:
            try:
                while pending or running:
                    stop.check()
                    while pending and len(running) < capacity:
                        student = self._start(*pending.popleft())
                        if student.intake.files:
                            running[pool.submit(self._grade_student, student)] = student
                        else:
                            self._done(student, on_done)
                    if not running:
                        continue
                    finished, _ = wait(running, timeout=_POLL, return_when=FIRST_COMPLETED)
                    for future in finished:
                        student = running.pop(future)
                        try:
                            student.results = future.result()
                        except Exception as exc:  # noqa: BLE001 - a grader bug costs one student
                            student.failures.append(_("the grader failed ({error})",
                                                      error=f"{type(exc).__name__}: {exc}"))
                        self._done(student, on_done)
            except BaseException:
                self.launcher.close()
                self.launcher.kill_all()
                pool.shutdown(wait=True, cancel_futures=True)
                for student in running.values():
                    student.workdir.cleanup()
                    shutil.rmtree(student.staging, ignore_errors=True)
                raise
        self.launcher.close()  # every child has ended: the fork servers end too

    def _done(self, student: _Student, on_done: Callable[[Row], None]) -> None:
        row = self._finish(student)
        self.rows[row.slug] = row
        self.write_csv()
        on_done(row)

    def sync_rows(self) -> None:
        """Load the rows of students whose folder is on disk but not yet in memory: a signal
        that lands between installing a folder and recording its row must not leave the CSV
        out of step with the folders."""
        for entry in self.entries:
            if entry.slug not in self.rows:
                record = read_record(self.students / entry.slug)
                if record is not None:
                    self.rows[entry.slug] = row_of(record)

    # -- outputs

    def ordered_rows(self) -> list[Row]:
        return [self.rows[e.slug] for e in self.entries if e.slug in self.rows]

    def write_csv(self) -> None:
        """OUT/grades.csv from the rows of the students on disk, atomically."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["student", *self.ids, "total", "status", "detail"])
        for row in self.ordered_rows():
            writer.writerow([_cell(row.student), *(f"{row.scores.get(i, 0):g}" for i in self.ids),
                             f"{row.total:g}", row.status, _cell(row.detail)])
        fd, tmp = tempfile.mkstemp(dir=self.out, prefix=f".{CSV_NAME}.")
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="") as handle:
            handle.write(buffer.getvalue())
        os.chmod(tmp, 0o644)
        os.replace(tmp, self.out / CSV_NAME)


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (student text included)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


class Stop:
    """The signal that asked the batch to stop: the handler only records it, and the grading loop
    acts on it between two students (``check``).  A handler that raised KeyboardInterrupt wherever
    the main thread was could land inside a finalizer or a weakref callback, where Python prints
    the exception and drops it, and the batch ran on to the end with exit status 0."""

    def __init__(self) -> None:
        self.signal: str | None = None

    def check(self) -> None:
        if self.signal is not None:
            raise KeyboardInterrupt(self.signal)


@contextlib.contextmanager
def interruptible() -> Iterator[Stop]:
    """Ctrl-C, SIGTERM and SIGHUP ask the batch to stop (main thread only; elsewhere nothing
    is installed and the Stop is never set)."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def interrupt(signum: int, frame: object) -> None:
        stop.signal = signal.Signals(signum).name

    previous = {s: signal.signal(s, interrupt) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_batch(batch: Batch, on_start: Callable[[int, int], None] = lambda todo, reused: None,
              on_done: Callable[[Row], None] = lambda row: None) -> Summary:
    """Plan, grade what is needed, keep the CSV in step; the report is the caller's."""
    batch.out.mkdir(parents=True, exist_ok=True)
    key = exercises_key(batch.exercises, batch.expected())
    todo, stale = batch.plan(key)
    batch.write_csv()
    reused = len(batch.rows)
    on_start(len(todo), reused)
    summary = Summary(0, reused, [], stale)
    try:
        with interruptible() as stop:
            batch.grade(todo, on_done, stop)
    except KeyboardInterrupt:
        summary.interrupted = True
        batch.sync_rows()
    finally:
        batch.write_csv()
    summary.rows = batch.ordered_rows()
    summary.graded = len(summary.rows) - reused
    return summary
