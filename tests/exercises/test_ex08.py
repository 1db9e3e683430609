"""ex08 detach: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex08", solution_path("ex08")).full_marks
    assert grade("ex08", stub_path("ex08")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex08_copy_not_detach", {"the detached copy shares w's data",
                              "w stays a leaf and keeps its gradient",
                              "backward of a detached value raises"}),
    ("ex08_no_cut", {"w * w.detach() sends gradient through one factor", "same value, different graph"}),
    ("ex08_hardcoded", {"the detached copy shares w's data",
                        "the detached copy is a leaf without grad",
                        "w * w.detach() sends gradient through one factor", "same value, different graph"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex08", wrong, must_fail)
