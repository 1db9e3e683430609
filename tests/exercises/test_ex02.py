"""ex02 leaves: the solution earns full marks, the stub nothing, and wrong answers lose points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex02", solution_path("ex02")).full_marks
    assert grade("ex02", stub_path("ex02")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex02_flags_ignored", {"a leaf that does not require grad",
                            "results of no-grad values are leaves", "which leaves get a gradient"}),
    ("ex02_leaf_means_requires_grad", {"node_info reads the attributes",
                                       "node_info on every kind of Value"}),
    ("ex02_hardcoded", {"which leaves get a gradient"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex02", wrong, must_fail)
