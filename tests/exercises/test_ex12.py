"""ex12 linear: the solution earns full marks, the stub nothing, and wrong answers lose points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex12", solution_path("ex12")).full_marks
    assert grade("ex12", stub_path("ex12")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex12_always_retain", {"a second backward raises", "a failed backward adds nothing"}),
    ("ex12_fake_doubling", {"forward gives input leaves, output rows, summed loss",
                            "every parameter's grad doubles"}),
    ("ex12_own_net", {"forward gives input leaves, output rows, summed loss",
                      "a failed backward adds nothing",
                      "with retain_graph=True, the gradients after each call",
                      "every parameter's grad doubles", "other layer sizes"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex12", wrong, must_fail)
