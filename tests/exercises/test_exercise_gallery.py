"""The gallery: every plausible wrong answer loses points with feedback that names its mistake;
every correct variant scores full marks (tables in ``gallery/exNN/cases.py``).

All cases are graded once, a few at a time (each grading waits on its own sandboxed child), and
the one parametrised test reads its case's result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from exercise_grading import expected_numbers, grade, mentions, solution_path
from gallery_case import Case, Correct, load_cases, write_case
from grader.course.folder import in_parallel
from grader.judge.grading import ExerciseResult

CASES = load_cases()


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], ExerciseResult]:
    for exercise_id in dict.fromkeys(ex for ex, _ in CASES):
        expected_numbers(exercise_id)  # the reference's observations, once per exercise

    def job(exercise_id: str, case: Case, folder: Path):
        return lambda: grade(exercise_id, write_case(exercise_id, case, solution_path(exercise_id),
                                                     folder))

    jobs = [job(ex, case, tmp_path_factory.mktemp(f"{ex}-{case.name}")) for ex, case in CASES]
    results = in_parallel(jobs)
    return {(ex, case.name): result for (ex, case), result in zip(CASES, results)}


@pytest.mark.parametrize(
    "exercise_id, case", CASES, ids=[f"{ex}-{case.name}" for ex, case in CASES]
)
def test_gallery(exercise_id, case, graded):
    result = graded[exercise_id, case.name]
    failed = {t.name: t for t in result.tests if t.status != "passed"}
    if isinstance(case, Correct):
        assert not failed, {name: t.feedback for name, t in failed.items()}
        return
    assert result.score < result.max_score
    for name, fragment in case.fails.items():
        assert name in failed, f"{case.name} passed {name!r}"
        assert fragment in failed[name].feedback, f"{name}: {failed[name].feedback!r}"
    numbers = expected_numbers(exercise_id)
    for name, test in failed.items():
        assert test.feedback.strip(), f"{name}: no feedback"
        if test.status == "error":  # the student's own exception, told as it was raised
            continue
        leaked = mentions(test.feedback, numbers)
        assert not leaked, f"{name}: feedback gives away {leaked}: {test.feedback!r}"
