"""ex07 inplace: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex07", solution_path("ex07")).full_marks
    assert grade("ex07", stub_path("ex07")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex07_rebinding", {"a += 1 changes the same object", "changing a saved value breaks backward",
                        "the version counter counts in-place changes",
                        "a failed backward writes no gradient"}),
    ("ex07_leaf_under_no_grad", {"in-place on a leaf raises", "the leaf is left unchanged"}),
    ("ex07_hardcoded", {"changing a saved value breaks backward",
                        "the version counter counts in-place changes",
                        "an unsaved value may change"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex07", wrong, must_fail)
