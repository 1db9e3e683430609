"""A course folder: where the stubs, solutions, tests, expected answers and cache live.

The CLI is a thin layer over this; the course autograder (batch grading, Gradescope, student
releases) builds on the same object: ``Course(root).grade(exercise, file)`` grades one
exercise of one submission and returns a plain ``ExerciseResult``.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar

from grader.course import catalog
from grader.course.catalog import LoadedExercise, find_submission
from grader.course import notebook
from grader.course.intake import refuse_link
from grader.course.source_text import text_problem
from grader.i18n import _
from grader.judge import diagram
from grader.judge.diagram import Warming
from grader.judge.grading import ExerciseResult, judge, sandbox_run, zero
from grader.judge.reference import (
    DEFAULT_SHIPPED_DIR,
    Expected,
    NoExpected,
    default_cache_dir,
    expected_for,
)
from grader.judge.status import ERROR
from grader.sandbox.run import ChildReport, Spawn, spawn_here
from grader.sandbox.session import Run, run_children

T = TypeVar("T")

COURSE_MARK = "exercises"  # the folder that makes a folder a course's


def find_root(start: Path) -> Path:
    """The course folder ``start`` lies in: the nearest folder from ``start`` upwards that holds
    ``exercises/``, so ``grade`` works from ``exercises/`` or a notebook's folder too; ``start``
    itself when none does (the error then names the folder the command ran in)."""
    for folder in (start, *start.parents):
        if (folder / COURSE_MARK).is_dir():
            return folder
    return start



@dataclass
class Course:
    """Paths of one course folder; ``root`` holds ``exercises/`` and maybe ``solutions/``."""

    root: Path
    tests_dir: Path = catalog.DEFAULT_TESTS_DIR
    shipped_dir: Path = DEFAULT_SHIPPED_DIR
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    spawn: Spawn = spawn_here  # how the sandbox starts children (an unprivileged user for a class)
    solutions_only: bool = False  # a course autograder: never a shipped answer a child could read
    settled: dict[str, Expected] = field(default_factory=dict)  # by id: answers fixed for this run
    draw_early: bool = True  # draw each diagram while its child runs the tests (``Warming``)

    @property
    def exercises_dir(self) -> Path:
        return self.root / COURSE_MARK

    @property
    def solutions_dir(self) -> Path:
        return self.root / "solutions"

    def ids(self) -> list[str]:
        return catalog.exercise_ids(self.tests_dir)

    def load(self, exercise_id: str) -> LoadedExercise:
        return catalog.load(exercise_id, self.tests_dir)

    def expected(self, ex: LoadedExercise) -> Expected:
        """Expected observations (raises NoExpected when neither solution nor shipped file).
        With ``solutions_only`` (a course autograder) only from the solution: a shipped file
        sits in the grader's folder, where a child without Landlock could read it.  An answer in
        ``settled`` (a batch fixes each exercise's before its first student) is taken as it is:
        reading and hashing the cache again for every student cost more than judging."""
        if ex.spec.id in self.settled:
            return self.settled[ex.spec.id]
        if self.solutions_only and find_submission(self.solutions_dir, ex.spec) is None:
            raise NoExpected(_("no solutions/{file} to grade {id} against: a course autograder "
                               "takes expected answers from the solutions only",
                               file=f"{ex.spec.module}.py", id=ex.spec.id))
        return expected_for(ex, solutions_dir=self.solutions_dir, cache_dir=self.cache_dir,
                            shipped_dir=self.shipped_dir, spawn=self.spawn)

    def secrets(self) -> list[Path]:
        """What no child may read: the solutions, the expected answers (cached and shipped)
        and the test modules, this course's and the grader's own."""
        folders = dict.fromkeys((self.tests_dir, catalog.DEFAULT_TESTS_DIR))
        tests = [d / f"{i}.py" for d in folders for i in catalog.exercise_ids(d)]
        cache = [self.cache_dir] if self.cache_dir is not None else []
        return [self.solutions_dir, *cache, self.shipped_dir, DEFAULT_SHIPPED_DIR, *tests]

    def display(self, path: Path) -> str:
        """A file of the course as a path the student can open where they are: from the current
        folder when that is in the course (``ex03_retain_grad.py`` in ``exercises/``,
        ``../exercises/ex03_retain_grad.py`` beside a notebook), else from the course folder;
        a file outside the course as given."""
        root = Path(os.path.abspath(self.root))
        absolute = Path(os.path.abspath(path))
        if not absolute.is_relative_to(root):
            return str(path)
        here = Path(os.path.abspath(os.curdir))
        return os.path.relpath(absolute, here if here.is_relative_to(root) else root)

    def grade(self, ex: LoadedExercise, submission: Path, *, diagram_dir: Path | None = None,
              formats: tuple[str, ...] = ("svg",)) -> ExerciseResult:
        """Grade one exercise of one submission file (zero if the file is missing, or if a
        symbolic link is on its way)."""
        return self.grade_many([(ex, submission, diagram_dir)], formats)[0]

    def grade_many(self, jobs: list[tuple[LoadedExercise, Path, Path | None]],
                   formats: tuple[str, ...] = ("svg",)) -> list[ExerciseResult]:
        """Grade exercises of one submission, (exercise, file, diagram folder) each, in order,
        with one sandboxed child for all of them where the system allows
        (``grader.sandbox.session``: a class is graded faster so).  A ``.ipynb`` is graded by
        its code cells joined into the exercise's file, with lines named by cell in feedback and
        a note on what was not graded.  With ``draw_early`` a diagram is drawn as soon as the
        child sends it (``grader.sandbox.early``), while a core would otherwise wait for the child."""
        results: list[ExerciseResult | None] = [None] * len(jobs)
        warming = Warming(formats)
        with tempfile.TemporaryDirectory(prefix="grade-ipynb-") as folder:
            ready = []
            for i, (ex, submission, diagram_dir) in enumerate(jobs):
                if diagram_dir is not None:
                    diagram.clear(diagram_dir)
                found = self._prepare(ex, submission, diagram_dir, Path(folder))
                if isinstance(found, ExerciseResult):
                    results[i] = found
                else:
                    ready.append((i, found))
            runs = [dataclasses.replace(p.run, early=warming.hook(p.diagram_dir))
                    if self.draw_early and p.run.diagram and p.diagram_dir is not None else p.run
                    for _, p in ready]
            try:
                reports = run_children(runs, self.spawn)
            except OSError as exc:  # the children could not be started: say so, grade the rest
                reports = []
                for i, p in ready:
                    results[i] = zero(p.ex, ERROR, _("cannot grade {path}: {error}", path=p.shown, error=exc))
            try:
                for (i, p), report in zip(ready, reports):
                    results[i] = self._judged(p, report, formats)
            finally:
                warming.join()
        return [r for r in results if r is not None]

    def grade_spread(self, jobs: list[tuple[LoadedExercise, Path, Path | None]],
                     formats: tuple[str, ...] = ("svg",), workers: int | None = None
                     ) -> list[ExerciseResult]:
        """Grade (exercise, file, diagram folder) jobs, in order: ``grade_many`` of a few groups at
        once, a group per core (``spread``).  A child per job cost its start, its imports and
        its isolation each time, more CPU than most exercises' probes (``grade check`` of the
        whole course started 44 children, now 2 on two cores); a group is one child, and the
        groups keep the cores busy."""
        groups = spread([ex.spec.module for ex, _, _ in jobs], workers or os.cpu_count() or 2)
        graded = in_parallel([lambda g=g: self.grade_many([jobs[i] for i in g], formats)
                              for g in groups])
        results: list[ExerciseResult | None] = [None] * len(jobs)
        for group, found in zip(groups, graded):
            for i, result in zip(group, found):
                results[i] = result
        return [r for r in results if r is not None]

    def _prepare(self, ex: LoadedExercise, submission: Path, diagram_dir: Path | None,
                 folder: Path) -> ExerciseResult | _Prepared:
        """What ``grade_many`` runs for one exercise, or its result when nothing is to run (no
        file, a link, no expected answers, a notebook that cannot be read)."""
        shown = self.display(submission)
        refused = refuse_link(submission, shown)
        if refused:
            return zero(ex, ERROR, refused)
        if not submission.is_file():
            return zero(ex, ERROR, _("no file {path}: write it first", path=shown))
        try:
            expected = self.expected(ex)
        except NoExpected as exc:
            return zero(ex, ERROR, str(exc))
        if not notebook.is_notebook(submission):
            unreadable = text_problem(submission, shown)
            if unreadable:
                return zero(ex, ERROR, unreadable)
            return _Prepared(ex, sandbox_run(ex, submission, diagram_dir), expected, shown,
                             diagram_dir)
        try:
            converted = notebook.convert_file(submission, shown)
            joined = folder / ex.spec.id / f"{ex.spec.module}.py"
            joined.parent.mkdir()
            joined.write_text(converted.source, encoding="utf-8")
        except notebook.NotebookError as exc:
            return zero(ex, ERROR, str(exc))
        except OSError as exc:
            return zero(ex, ERROR, _("cannot grade {path}: {error}", path=shown, error=exc))
        return _Prepared(ex, sandbox_run(ex, joined, diagram_dir), expected, shown, diagram_dir,
                         converted)

    def _judged(self, p: _Prepared, report: ChildReport,
                formats: tuple[str, ...]) -> ExerciseResult:
        try:
            names = p.converted.where if p.converted else None
            result = judge(p.ex, report, p.expected, display=p.shown, diagram_dir=p.diagram_dir,
                           formats=formats, names=names, submission=p.run.submission)
        except OSError as exc:  # an unreadable file, a full disk: say so, grade the rest
            return zero(p.ex, ERROR, _("cannot grade {path}: {error}", path=p.shown, error=exc))
        if p.converted:  # after judging: the notes say how cells count if feedback named one
            result.notes += [_("{path}: {note}", path=p.shown, note=note) for note in p.converted.notes(" ".join(t.feedback for t in result.tests))]
        return result


@dataclass
class _Prepared:
    """One exercise ready for the sandbox: its run, and what judging its report needs."""

    ex: LoadedExercise
    run: Run
    expected: Expected
    shown: str  # the file as feedback names it
    diagram_dir: Path | None
    converted: notebook.Converted | None = None  # a notebook's code, its lines named by cell


@dataclass
class NamedCourse(Course):
    """A course whose feedback names files by their place in the student's entry."""

    shown: dict[Path, str] = field(default_factory=dict)

    def display(self, path: Path) -> str:
        return self.shown.get(path) or super().display(path)


def spread(modules: list[str], groups: int) -> list[list[int]]:
    """The indices of ``modules`` in at most ``groups`` groups of about equal size (more when a
    module comes more often), no module twice in a group: one child runs a group, its files
    side by side in one scratch folder under their modules' names."""
    found: list[list[int]] = [[] for _ in range(min(groups, len(modules)))]
    for i, module in enumerate(modules):
        free = [g for g in found if all(modules[j] != module for j in g)]
        if not free:
            free = [[]]
            found += free
        min(free, key=len).append(i)
    return [g for g in found if g]


def in_parallel(jobs: list[Callable[[], T]], workers: int | None = None) -> list[T]:
    """Run independent jobs (each mostly waiting on its own child process) on a few threads,
    returning results in order."""
    workers = workers or os.cpu_count() or 2
    if len(jobs) <= 1:
        return [job() for job in jobs]
    from concurrent.futures import ThreadPoolExecutor  # not for one job: ``grade ex03`` starts sooner

    with ThreadPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        return list(pool.map(lambda job: job(), jobs))
