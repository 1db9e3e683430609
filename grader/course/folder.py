"""A course folder: where the stubs, solutions, tests, expected answers and cache live.

The CLI is a thin layer over this; the course autograder (batch grading, Gradescope, student
releases) builds on the same object: ``Course(root).grade(exercise, file)`` grades one
exercise of one submission and returns a plain ``ExerciseResult``.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar

from grader.course import catalog
from grader.course.catalog import LoadedExercise
from grader.course import notebook
from grader.course.intake import refuse_link
from grader.i18n import _
from grader.judge.grading import ExerciseResult, grade_exercise, zero
from grader.judge.reference import (
    DEFAULT_SHIPPED_DIR,
    Expected,
    NoExpected,
    default_cache_dir,
    expected_for,
)
from grader.judge.status import ERROR
from grader.sandbox.run import Spawn, spawn_here

T = TypeVar("T")


@dataclass
class Course:
    """Paths of one course folder; ``root`` holds ``exercises/`` and maybe ``solutions/``."""

    root: Path
    tests_dir: Path = catalog.DEFAULT_TESTS_DIR
    shipped_dir: Path = DEFAULT_SHIPPED_DIR
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    spawn: Spawn = spawn_here  # how the sandbox starts children (an unprivileged user for a class)

    @property
    def exercises_dir(self) -> Path:
        return self.root / "exercises"

    @property
    def solutions_dir(self) -> Path:
        return self.root / "solutions"

    def ids(self) -> list[str]:
        return catalog.exercise_ids(self.tests_dir)

    def load(self, exercise_id: str) -> LoadedExercise:
        return catalog.load(exercise_id, self.tests_dir)

    def expected(self, ex: LoadedExercise) -> Expected:
        """Expected observations (raises NoExpected when neither solution nor shipped file)."""
        return expected_for(ex, solutions_dir=self.solutions_dir, cache_dir=self.cache_dir,
                            shipped_dir=self.shipped_dir, spawn=self.spawn)

    def display(self, path: Path) -> str:
        """A path as the student should read it: relative to the course folder if inside."""
        try:
            return str(Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root)))
        except ValueError:
            return str(path)

    def grade(self, ex: LoadedExercise, submission: Path, *, diagram_dir: Path | None = None,
              formats: tuple[str, ...] = ("svg",)) -> ExerciseResult:
        """Grade one exercise of one submission file (zero if the file is missing, or if a
        symbolic link is on its way)."""
        refused = refuse_link(submission, self.display(submission))
        if refused:
            return zero(ex, "error", refused)
        if not submission.is_file():
            return zero(ex, ERROR, _("no file {path}: write it first", path=self.display(submission)))
        try:
            expected = self.expected(ex)
        except NoExpected as exc:
            return zero(ex, ERROR, str(exc))
        try:
            if notebook.is_notebook(submission):
                return self._grade_notebook(ex, submission, expected, diagram_dir, formats)
            return grade_exercise(ex, submission, expected, display=self.display(submission),
                                  diagram_dir=diagram_dir, formats=formats,
                                  spawn=self.spawn)
        except OSError as exc:  # an unreadable file, a full disk: say so, grade the rest
            return zero(ex, ERROR, _("cannot grade {path}: {error}", path=self.display(submission), error=exc))

    def _grade_notebook(self, ex: LoadedExercise, submission: Path, expected: Expected,
                        diagram_dir: Path | None, formats: tuple[str, ...]) -> ExerciseResult:
        """A ``.ipynb``: its code cells joined into the exercise's file, graded as one, with
        lines named by cell in feedback and a note on what was not graded."""
        shown = self.display(submission)
        try:
            converted = notebook.convert_file(submission, shown)
        except notebook.NotebookError as exc:
            return zero(ex, ERROR, str(exc))
        with tempfile.TemporaryDirectory(prefix="grade-ipynb-") as folder:
            joined = Path(folder) / f"{ex.spec.module}.py"
            joined.write_text(converted.source, encoding="utf-8")
            result = grade_exercise(ex, joined, expected, display=shown,
                                    diagram_dir=diagram_dir, formats=formats,
                                    spawn=self.spawn, names=converted.where)
        result.notes += [f"{shown}: {note}" for note in converted.notes()]
        return result


@dataclass
class NamedCourse(Course):
    """A course whose feedback names files by their place in the student's entry."""

    shown: dict[Path, str] = field(default_factory=dict)

    def display(self, path: Path) -> str:
        return self.shown.get(path) or super().display(path)


def in_parallel(jobs: list[Callable[[], T]], workers: int | None = None) -> list[T]:
    """Run independent jobs (each mostly waiting on its own child process) on a few threads,
    returning results in order."""
    workers = workers or os.cpu_count() or 2
    if len(jobs) <= 1:
        return [job() for job in jobs]
    with ThreadPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        return list(pool.map(lambda job: job(), jobs))
