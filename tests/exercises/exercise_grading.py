"""Grade exercise files through the grader's Python API, for the exercises' own tests (the
gallery, the public-test coverage): grading, the solution and stub paths, and the numbers an
exercise's tests expect, which no feedback may spell out.
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path
from typing import Any

from grader.course import catalog
from grader.course.catalog import LoadedExercise
from grader.judge.grading import ExerciseResult, grade_exercise
from grader.judge.reference import Expected, from_solution

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _exercise(exercise_id: str) -> tuple[LoadedExercise, Expected]:
    """The exercise's declaration and its expected observations (one run of the solution)."""
    ex = catalog.load(exercise_id)
    solution = ROOT / "solutions" / f"{ex.spec.module}.py"
    return ex, from_solution(ex, solution, cache_dir=None)


def grade(exercise_id: str, path: Path) -> ExerciseResult:
    ex, expected = _exercise(exercise_id)
    assert not expected.broken, f"the solution of {exercise_id} is broken: {expected.broken}"
    return grade_exercise(ex, path, expected)


def solution_path(exercise_id: str) -> Path:
    return ROOT / "solutions" / f"{_exercise(exercise_id)[0].spec.module}.py"


def stub_path(exercise_id: str) -> Path:
    return ROOT / "exercises" / f"{_exercise(exercise_id)[0].spec.module}.py"


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
    _, expected = _exercise(exercise_id)
    return _numbers(list(expected.observations.values()))


def mentions(feedback: str, numbers: set[float]) -> list[float]:
    """The expected numbers a feedback text spells out (``5.0``, or ``5`` for numbers that are
    not tiny integers, which sentences use for other things: "its version counter is still 0")."""
    spelled = []
    for number in numbers:
        forms = {repr(number)}
        if math.isfinite(number) and not (number.is_integer() and abs(number) <= 3):
            forms.add(f"{number:g}")
        if any(re.search(rf"(?<![\d.]){re.escape(form)}(?![\d.])", feedback) for form in forms):
            spelled.append(number)
    return sorted(spelled)
