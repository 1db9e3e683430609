"""ex05 accumulation: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex05", solution_path("ex05")).full_marks
    assert grade("ex05", stub_path("ex05")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex05_hardcoded", {"gradients accumulate", "accumulation over other step counts",
                        "zero_() every step", "grad = None every step"}),
    ("ex05_new_leaves", {"gradients accumulate", "accumulation over other step counts"}),
    ("ex05_only_w_new_zero", {"both leaves cleared after each step",
                              "zero_grad clears every leaf"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex05", wrong, must_fail)
