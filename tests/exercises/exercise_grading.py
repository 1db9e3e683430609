"""Grade exercise files through the grader's Python API, for the exercises' own tests (the
gallery, the public-test coverage): grading, the solution and stub paths, and the numbers an
exercise's tests expect, which no feedback may spell out.

The reference's observations come from the run's shared cache of expected answers
(``answers`` in tests/conftest.py): each solution runs once a run, whichever pytest-xdist
worker first needs it, so an exercise's tests need not share a worker and spread over all of
them, one sandboxed child per test.
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path
from typing import Any

from grader.course import catalog
from grader.course.catalog import LoadedExercise
from grader.judge import replayed
from grader.judge.caused_errors import WITH_CAUSE
from grader.judge.grading import ExerciseResult, grade_exercise, judge, sandbox_run
from grader.judge.reference import Expected, from_solution
from grader.sandbox.run import ChildReport
from grader.sandbox.session import run_children
from micrograph.viz import schema

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _loaded(exercise_id: str) -> LoadedExercise:
    return catalog.load(exercise_id)


class Grading:
    """Grading against the reference solutions' answers kept in ``answers`` (a cache folder
    the grader fills atomically, shared by every worker of the run)."""

    def __init__(self, answers: Path) -> None:
        self.answers = answers
        self._expected: dict[str, Expected] = {}
        self._numbers: dict[str, set[float]] = {}

    def expected(self, exercise_id: str) -> Expected:
        """The exercise's expected observations (one run of the solution a run)."""
        if exercise_id not in self._expected:
            found = from_solution(_loaded(exercise_id), solution_path(exercise_id), self.answers)
            assert not found.broken, f"the solution of {exercise_id} is broken: {found.broken}"
            self._expected[exercise_id] = found
        return self._expected[exercise_id]

    def grade(self, exercise_id: str, path: Path) -> ExerciseResult:
        return grade_exercise(_loaded(exercise_id), path, self.expected(exercise_id))

    def judged(self, exercise_id: str, path: Path, report: ChildReport) -> ExerciseResult:
        """The grade of ``observe``'s report, its feedback in the current language (the second
        half of ``grade``)."""
        return judge(_loaded(exercise_id), report, self.expected(exercise_id), display=str(path),
                     submission=path)

    def expected_numbers(self, exercise_id: str) -> set[float]:
        """Every number any test of the exercise expects, hidden tests included (gathered once:
        each gallery case asks for them, and walking every observation again cost a second
        or two of a run)."""
        if exercise_id not in self._numbers:
            self._numbers[exercise_id] = _numbers(list(self.expected(exercise_id).observations.values()))
        return self._numbers[exercise_id]


def observe(submissions: list[tuple[str, Path]], drawn: bool = False) -> list[ChildReport]:
    """What the sandbox reports on each (exercise id, path) (its first half of ``grade``), with
    the diagram probe's record when ``drawn`` (nothing is rendered: that is the parent's).
    One child runs them all, each exercise in a process of its own forked from it, as a
    student's submission of several exercises is graded (the exercises must differ): its
    start, imports and isolation cost more CPU than most exercises' probes.  The child runs in
    an environment of its own, whatever the grader's language: one report can be judged in
    every language."""
    return run_children([sandbox_run(_loaded(ex), path, path.parent if drawn else None)
                         for ex, path in submissions])


def rounds(items: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Each (exercise id, name)'s round: its place among its exercise's items.  Round k holds
    the k-th item of every exercise: files of different exercises, which ``observe`` grades in
    one child."""
    found: dict[tuple[str, str], int] = {}
    for exercise_id, name in items:
        found[exercise_id, name] = sum(1 for other in found if other[0] == exercise_id)
    return found


MISSING_NAME = re.compile(r"module 'ex\d\d_\w+' has no attribute '\w+'")  # the file lacks a name


def diagram_problem(report: ChildReport, told: str) -> str | None:
    """What is wrong with the diagram step of a submission that imported, or None: the probe
    must answer, with a graph or with the error that stopped it, and an error must be the
    submission's own (raised in its file, or a name its file does not define) or one its
    tests' feedback ``told`` too (a result the probe refuses, as the tests do).  Any other
    error is the probe's own crash."""
    record = report.diagram
    if report.import_error is not None:
        return None
    if record is None:  # answered by no record only where the submission ended its own process (told so)
        return None if report.diagram_exit is not None else "the diagram step never answered"
    error = record["error"]
    if error is None:
        return None if record["graph"] is not None else "no graph and no error"
    if error["line"] is not None or record["graph"] is not None or error["message"][:60] in told:
        return None
    if error["type"] == "AttributeError" and MISSING_NAME.fullmatch(error["message"]):
        return None
    if error["type"] in WITH_CAUSE:  # the student's error (or mark) told with its cause, as the tests tell it
        return None
    return f"the diagram probe raised {error['type']}: {error['message']}"


def difference_said(exercise_id: str, report: ChildReport) -> str:
    """What the note beside a build-track stage's ``difference.svg`` says of its marked node
    (``grader.judge.replayed``), judged from the diagram probe's graph without rendering it;
    "" for any other exercise, or when the graph has PyTorch's shape.  The note is feedback too:
    no sentence of it may be untrue of the answer."""
    reference = replayed.reference(exercise_id)
    record = report.diagram
    if reference is None or record is None or record["graph"] is None:
        return ""
    try:
        student = schema.validate(record["graph"])
    except ValueError:
        return ""
    ours = schema.validate(reference.graph)
    position = replayed.first_difference(student, ours)
    return "" if position is None else replayed.what_differs(student, ours, position) or ""


def solution_path(exercise_id: str) -> Path:
    return ROOT / "solutions" / f"{_loaded(exercise_id).spec.module}.py"


def stub_path(exercise_id: str) -> Path:
    return ROOT / "exercises" / f"{_loaded(exercise_id).spec.module}.py"


def _numbers(observation: Any) -> set[float]:
    """Every float in an observation (bools are not numbers here)."""
    if type(observation) in (int, float):
        return {float(observation)}
    if isinstance(observation, dict):
        observation = list(observation.values())
    if isinstance(observation, list):
        return set().union(*(_numbers(item) for item in observation)) if observation else set()
    return set()


def mentions(feedback: str, numbers: set[float]) -> list[float]:
    """The expected numbers a feedback text spells out (``5.0``, or ``5`` for numbers that are
    not tiny integers, which sentences use for other things: "its version counter is still 0").

    A form is looked for as a plain substring first: an exercise expects hundreds of numbers,
    and compiling a pattern for each one on every feedback text cost most of a gallery run."""
    spelled = []
    for number in numbers:
        forms = {repr(number)}
        if math.isfinite(number) and not (number.is_integer() and abs(number) <= 3):
            forms.add(f"{number:g}")
        if any(form in feedback and re.search(rf"(?<![\d.]){re.escape(form)}(?![\d.])", feedback)
               for form in forms):
            spelled.append(number)
    return sorted(spelled)
