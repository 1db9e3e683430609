"""ex09 no_grad: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex09", solution_path("ex09")).full_marks
    assert grade("ex09", stub_path("ex09")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex09_rebinding_step", {"a gradient step under no_grad", "the step changes the leaf in place",
                             "three steps descend"}),
    ("ex09_no_zero_no_no_grad", {"inference records nothing", "after inference",
                                 "three steps descend"}),
    ("ex09_global_switch", {"after inference", "without no_grad the step raises",
                            "set_grad_enabled switches recording"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex09", wrong, must_fail)
