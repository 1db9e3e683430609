"""The feedback table on a terminal: a word is never cut in two, however long the test names."""

from __future__ import annotations

import pytest

from grader.judge.grading import ExerciseResult, TestResult
from grader.report.terminal import exercise
from grader.report.width import width

LONG_NAME = "with retain_graph=True, the gradients after each call"  # the longest test name
FEEDBACK = ("a second y.backward() after y.backward() raised no error, where PyTorch raises one. "
            "A second backward through a node that saved values must raise "
            "RuntimeError(SECOND_BACKWARD) unless the first kept the graph (retain_graph=True)")


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_no_word_of_the_feedback_is_cut(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    result = ExerciseResult("ex20", "Build an engine: saved values freed",
                            [TestResult(LONG_NAME, False, 0, 2, "failed", FEEDBACK)])
    lines = exercise(result, "ex20_build_saved_values.py").splitlines()
    assert all(width(line) <= columns for line in lines if "ex20_build" not in line), lines
    words = " ".join(line.strip() for line in lines).split()
    assert "RuntimeError(SECOND_BACKWARD)" in words
    assert "(retain_graph=True)" in words


@pytest.mark.parametrize("columns", [80, 200])
def test_a_table_without_feedback_keeps_its_heading_on_the_heading_line(
        columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    result = ExerciseResult("ex20", "Build an engine: saved values freed",
                            [TestResult(LONG_NAME, True, 2, 2, "passed", "")])
    lines = exercise(result, "ex20_build_saved_values.py").splitlines()
    assert lines[1].split()[-1] == "feedback" and "feedback" not in "".join(lines[2:]), lines
