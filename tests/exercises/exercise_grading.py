"""Grade exercise files through the grader's Python API, for the exercises' own tests (the
gallery, the public-test coverage): grading, the solution and stub paths, and the numbers an
exercise's tests expect, which no feedback may spell out.

The reference's observations are computed once per process and exercise, when first needed
(finding a solution's path does not need them); ``group`` marks an exercise's tests so that
pytest-xdist runs them on one worker, which then computes that exercise's reference alone.
"""

from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from grader.course import catalog
from grader.course.catalog import LoadedExercise
from grader.judge.grading import ExerciseResult, grade_exercise, judge, sandbox_run
from grader.judge.reference import Expected, from_solution
from grader.sandbox.run import ChildReport
from grader.sandbox.session import run_children

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _loaded(exercise_id: str) -> LoadedExercise:
    return catalog.load(exercise_id)


@functools.cache
def _expected(exercise_id: str) -> Expected:
    """The exercise's expected observations (one run of the solution)."""
    expected = from_solution(_loaded(exercise_id), solution_path(exercise_id), cache_dir=None)
    assert not expected.broken, f"the solution of {exercise_id} is broken: {expected.broken}"
    return expected


def group(exercise_id: str) -> pytest.MarkDecorator:
    """The mark that keeps an exercise's tests on one pytest-xdist worker (``--dist loadgroup``)."""
    return pytest.mark.xdist_group(exercise_id)


def at_once() -> int:
    """How many gradings one test process runs side by side: its share of the cores (each
    grading is a sandboxed child busy on one core), so that pytest-xdist's workers together
    load the machine no more than one process did, and time limits hold as they did."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, (os.cpu_count() or 1) // workers)


def grade(exercise_id: str, path: Path) -> ExerciseResult:
    return grade_exercise(_loaded(exercise_id), path, _expected(exercise_id))


def observe(exercise_id: str, path: Path) -> ChildReport:
    """What the sandboxed child reports on ``path`` (its first half of ``grade``).  The child
    runs in an environment of its own, whatever the grader's language: one report can be
    judged in every language."""
    return run_children([sandbox_run(_loaded(exercise_id), path, None)])[0]


def judged(exercise_id: str, path: Path, report: ChildReport) -> ExerciseResult:
    """The grade of ``observe``'s report, its feedback in the current language (the second
    half of ``grade``)."""
    return judge(_loaded(exercise_id), report, _expected(exercise_id), display=str(path))


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


def expected_numbers(exercise_id: str) -> set[float]:
    """Every number any test of the exercise expects, hidden tests included."""
    return _numbers(list(_expected(exercise_id).observations.values()))


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
