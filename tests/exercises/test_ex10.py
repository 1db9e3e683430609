"""ex10 dynamic_graph: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex10", solution_path("ex10")).full_marks
    assert grade("ex10", stub_path("ex10")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex10_static_mask", {"branch picks the operation", "a new graph per call",
                          "grad_fn_chain reads a branch"}),
    ("ex10_chain_first_input", {"grad_fn_chain on other graphs"}),
    ("ex10_fixed_loop", {"branch picks the operation", "a new graph per call",
                         "the while loop follows the data", "the loop's graph and gradient"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex10", wrong, must_fail)
