"""The feedback table on a terminal: a word is never cut in two, however long the test names,
and Chinese cells line up in a browser's monospace font too."""

from __future__ import annotations

import io
import sys

import pytest

from grader.judge.grading import ExerciseResult, TestResult
from grader.report.terminal import exercise
from grader.report.width import shape, width
from micrograph.i18n import using

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


@pytest.mark.parametrize("columns", [80, 160])
def test_chinese_cells_line_up_where_a_wide_character_is_not_two_spaces(
        columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser's monospace font draws a CJK character narrower than two spaces (a Markdown
    page, a notebook's !grade): the columns line up there too only when each cell before them
    holds as many narrow columns and as many wide characters as every other row's."""
    monkeypatch.setenv("COLUMNS", str(columns))
    names = ["读非叶子节点 .grad 时的警告", "backward 之后非叶子节点的梯度是 None", "a.grad after retain_grad"]
    result = ExerciseResult("ex03", "retain_grad", [TestResult(n, True, 2, 2, "passed", "") for n in names])
    rows = [line for line in exercise(result, "ex03_retain_grad.py").splitlines() if "2/2" in line]
    before_points = {shape(line[:line.index("2/2")]) for line in rows}
    assert len(rows) == 3 and len(before_points) == 1, rows


def test_the_heading_s_brackets_are_full_width_in_chinese() -> None:
    """The heading names where the code came from ("这个笔记本", a path) in brackets: in a
    Chinese line, full-width ones."""
    result = ExerciseResult("ex05", "Gradients accumulate until cleared", [TestResult("a", True, 2, 2, "passed", "")])
    with using("zh"):
        heading = exercise(result, "这个笔记本").splitlines()[0]
    assert heading == "ex05  梯度累加，直到清零（这个笔记本）", heading
    assert exercise(result, "ex05.py").splitlines()[0] == "ex05  Gradients accumulate until cleared  (ex05.py)"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_chinese_cells_line_up_by_columns_and_no_wider(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal draws a CJK character two columns wide: there each column is as wide as its
    widest cell, not as the browser's padding needs."""
    monkeypatch.setenv("COLUMNS", "160")
    names = ["读非叶子节点 .grad 时的警告", "backward 之后非叶子节点的梯度是 None", "a.grad after retain_grad"]
    result = ExerciseResult("ex03", "retain_grad", [TestResult(n, True, 2, 2, "passed", "") for n in names])
    browser = exercise(result, "ex03_retain_grad.py").splitlines()
    monkeypatch.setattr(sys, "stdout", _Terminal())
    rows = [line for line in exercise(result, "ex03_retain_grad.py").splitlines() if "2/2" in line]
    assert len(rows) == 3 and len({width(line[:line.index("2/2")]) for line in rows}) == 1, rows
    assert width(rows[0][:rows[0].index("2/2")]) == width("  backward 之后非叶子节点的梯度是 None  public  ")
    assert width(rows[0]) < min(width(line) for line in browser if "2/2" in line)


def test_feedback_with_few_columns_beside_its_row_goes_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's feedback is sentences: beside a row that leaves it fewer than
    ``MIN_FEEDBACK_COLUMN`` columns it would read a few words a line, so it goes under the row."""
    monkeypatch.setenv("COLUMNS", "100")
    name = "make_model seeds and builds MLP(2, 8, 1)"  # a row about 60 columns wide
    result = ExerciseResult("ex15", "Training a small MLP with SGD",
                            [TestResult(name, False, 0, 2, "failed", FEEDBACK)])
    lines = exercise(result, "ex15_train.py").splitlines()
    row = next(line for line in lines if name in line)
    assert row.rstrip().endswith("failed"), lines
    assert any(line.startswith("      a second y.backward()") for line in lines), lines


def test_an_error_several_tests_met_is_quoted_once_and_referred_to_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same error met by three of four tests, and by the diagram probe: quoted in full at the
    first test that met it, and each later test and the diagram's note refer to that test."""
    monkeypatch.setenv("COLUMNS", "200")
    error = "your code raised RuntimeError at line 34 (in jacobian_rows): Trying to backward through the graph"
    tests = [TestResult("build", True, 2, 2, "passed", ""), TestResult("one row", True, 0, 2, "error", error),
             TestResult("other rows", False, 0, 2, "error", error), TestResult("rows", True, 0, 1, "error", error)]
    result = ExerciseResult("ex11", "vjp", tests)
    result.notes = [f"the diagram shows the graph as it was before this error: {error}"]
    text = exercise(result, "ex11_vjp.py")
    assert text.count("Trying to backward") == 1, text
    assert text.count('the same error as in "one row" above.') == 3, text
    assert 'before this error: the same error as in "one row" above.' in text, text


def test_a_time_limit_several_tests_reached_is_referred_to_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A later test that timed out where an earlier one did, and the diagram's note, are told it
    timed out as that one did, not that it met "the same error": a time limit reached is no error
    of the code's."""
    monkeypatch.setenv("COLUMNS", "200")
    timeout = "timed out after 2.45 s (in double_until, line 66)"
    tests = [TestResult("the loop", True, 0, 1, "timeout", timeout), TestResult("the loop again", False, 0, 2, "timeout", timeout)]
    result = ExerciseResult("ex10", "dynamic graph", tests)
    result.notes = [f"no diagram: {timeout}"]
    text = exercise(result, "ex10_dynamic_graph.py")
    assert text.count("timed out after") == 1 and 'timed out as in "the loop" above, at the same place.' in text, text
    assert 'no diagram: timed out as in "the loop" above, at the same place.' in text, text
    assert "the same error" not in text, text
