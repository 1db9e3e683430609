"""ex06 requires_grad: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex06", solution_path("ex06")).full_marks
    assert grade("ex06", stub_path("ex06")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex06_flags_ignored", {"a result requires grad if an input does",
                            "every combination of flags",
                            "only leaves that require grad get a gradient"}),
    ("ex06_rebind_everywhere", {"the original leaf still gets its gradient",
                                "x.data.copy_ keeps x a leaf", "gradient after copy_"}),
    ("ex06_no_grad_and_hardcoded", {"x = x + 1 makes x a non-leaf",
                                    "the original leaf still gets its gradient",
                                    "gradient after copy_"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex06", wrong, must_fail)
