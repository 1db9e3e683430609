"""ex04 retain_graph: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex04", solution_path("ex04")).full_marks
    assert grade("ex04", stub_path("ex04")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex04_always_retain", {"a second backward raises", "a failed backward adds nothing",
                            "graphs that save values do not"}),
    ("ex04_message_string", {"a second backward raises", "graphs that save values do not"}),
    ("ex04_hardcoded", {"a failed backward adds nothing",
                        "with retain_graph=True the second backward adds"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex04", wrong, must_fail)
