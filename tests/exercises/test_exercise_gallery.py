"""The gallery: every plausible wrong answer loses points with feedback that names its mistake;
every correct variant scores full marks (tables in ``gallery/exNN/cases.py``).

All cases are graded once, a few at a time (each grading waits on its own sandboxed child), and
the one parametrised test reads its case's result.  The wrong answers of ex14 and ex15 are also
graded in Chinese: no number an exercise's tests expect in that feedback either.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exercise_grading import expected_numbers, grade, mentions, solution_path
from gallery_case import Case, Correct, Wrong, load_cases, write_case
from grader.course.folder import in_parallel
from grader.judge.grading import ExerciseResult
from micrograph.i18n import using

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



IN_CHINESE = [(ex, case) for ex, case in CASES if ex in ("ex14", "ex15") and isinstance(case, Wrong)]


@pytest.fixture(scope="module")
def graded_zh(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], ExerciseResult]:
    """The wrong answers of ex14 and ex15 graded in Chinese (the language is chosen inside
    each job: it runs in a worker thread)."""
    def job(exercise_id: str, case: Case, folder: Path):
        def run() -> ExerciseResult:
            with using("zh"):
                return grade(exercise_id, write_case(exercise_id, case,
                                                     solution_path(exercise_id), folder))
        return run

    jobs = [job(ex, case, tmp_path_factory.mktemp(f"zh-{ex}-{case.name}")) for ex, case in IN_CHINESE]
    return {(ex, case.name): result for (ex, case), result in zip(IN_CHINESE, in_parallel(jobs))}


@pytest.mark.parametrize("exercise_id, case", IN_CHINESE,
                         ids=[f"{ex}-{case.name}" for ex, case in IN_CHINESE])
def test_chinese_feedback_gives_no_number_away(exercise_id, case, graded_zh):
    """The same wrong answers in Chinese: the feedback is Chinese (sentences and advice come
    from the catalogue) and spells out no number a test of the exercise expects."""
    result = graded_zh[exercise_id, case.name]
    numbers = expected_numbers(exercise_id)
    failed = [t for t in result.tests if t.status == "failed"]
    assert failed or any(t.status == "error" for t in result.tests), case.name
    for test in failed:
        assert re.search("[\u4e00-\u9fff]", test.feedback), f"{test.name}: {test.feedback!r}"
        leaked = mentions(test.feedback, numbers)
        assert not leaked, f"{test.name}: feedback gives away {leaked}: {test.feedback!r}"
