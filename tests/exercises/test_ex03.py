"""ex03 retain_grad: the solution earns full marks, the stub nothing, and wrong answers lose
points."""

import pytest

from exercise_grading import WRONG, check_wrong, grade, solution_path, stub_path


def test_solution_full_marks_stub_zero():
    assert grade("ex03", solution_path("ex03")).full_marks
    assert grade("ex03", stub_path("ex03")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex03_no_retain_grad", {"a.grad after retain_grad", "retain_grad on exactly the nodes named",
                             "retained grads on varied inputs"}),
    ("ex03_retain_after_backward", {"a.grad after retain_grad",
                                    "retained grads on varied inputs"}),
    ("ex03_hardcoded", {"non-leaf grads are None after backward",
                        "the warning on reading a non-leaf's .grad"}),
    ("ex03_hardcoded_none", {"non-leaf grads are None after backward"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex03", wrong, must_fail)


def test_none_written_down_is_told_to_read_grad():
    result = grade("ex03", WRONG / "ex03_hardcoded_none.py")
    failed = {t.name: t.feedback for t in result.tests if t.status != "passed"}
    assert set(failed) == {"non-leaf grads are None after backward"}
    assert failed["non-leaf grads are None after backward"].startswith("read the .grad")


def test_retain_after_backward_is_told_when_to_retain():
    result = grade("ex03", WRONG / "ex03_retain_after_backward.py")
    feedback = next(t.feedback for t in result.tests if t.name == "retained grads on varied inputs")
    assert "before y.backward()" in feedback and "fixed numbers" not in feedback
