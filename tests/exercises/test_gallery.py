"""The gallery: every plausible wrong answer loses points with feedback that names its mistake;
every correct variant scores full marks (tables in ``gallery/exNN/cases.py``)."""

from __future__ import annotations

import pytest

from exercise_grading import expected_numbers, grade, mentions, solution_path
from gallery_case import Correct, load_cases, write_case

CASES = load_cases()


@pytest.mark.parametrize(
    "exercise_id, case", CASES, ids=[f"{ex}-{case.name}" for ex, case in CASES]
)
def test_gallery(exercise_id, case, tmp_path):
    path = write_case(exercise_id, case, solution_path(exercise_id), tmp_path)
    assert path.is_file(), f"no gallery file {path}"
    result = grade(exercise_id, path)
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
