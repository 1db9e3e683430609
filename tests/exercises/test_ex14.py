"""ex14 custom_function: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex14", solution_path("ex14")).full_marks
    assert grade("ex14", stub_path("ex14")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex14_ctx_attribute", {"backward frees what was saved", "an in-place change of the saved x is caught"}),
    ("ex14_wrong_derivative", {"Softplus values, node and gradient", "Softplus passes gradcheck",
                               "Clip values, node and gradient", "Clip passes gradcheck",
                               "the Functions inside a bigger graph"}),
    ("ex14_one_gradient", {"Clip values, node and gradient", "Clip passes gradcheck",
                           "backward frees what was saved", "the Functions inside a bigger graph"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex14", wrong, must_fail)
