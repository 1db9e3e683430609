"""ex11 vjp: the solution earns full marks, the stub nothing, and wrong answers lose points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex11", solution_path("ex11")).full_marks
    assert grade("ex11", stub_path("ex11")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex11_no_retain_graph", {"one Jacobian row per backward", "Jacobian rows for other shapes",
                              "without zeroing the records add up"}),
    ("ex11_no_zeroing", {"one Jacobian row per backward", "Jacobian rows for other shapes"}),
    ("ex11_hardcoded", {"build makes loss = mm(x, y)", "a gradient vector gives v times the Jacobian",
                        "y gets its gradient too when it requires grad",
                        "one Jacobian row per backward", "Jacobian rows for other shapes",
                        "without zeroing the records add up"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex11", wrong, must_fail)
