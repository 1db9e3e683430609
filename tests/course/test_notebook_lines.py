"""IPython's syntax is read only where IPython reads it, at the start of a logical line: a line
that continues a statement is Python whatever it starts with, and a timing magic keeps its
statement."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebook_intake import grade_json, notebook_of, solution_cells

from grader.course.notebook import convert
from grader.course.notebook_lines import timed_statement


def test_a_line_that_continues_a_statement_is_python_whatever_it_starts_with() -> None:
    """A %-format broken before its operator, a != broken the same way and a docstring's line
    starting with !!! ran in Jupyter: they are kept, so the cell's code is what Python reads."""
    cell = ('def step(i, g):\n    """Say it.\n\n    !!! note: in place\n    """\n'
            '    return ("%d: %.1f"\n            % (i, g))\n'
            'same = (step(1, 2.0)\n        != step(2, 2.0))\n'
            'if same:\n    !ls\n%matplotlib inline\nnote = """\n%not a magic\n"""')
    converted = convert(notebook_of(("code", cell)), "w.ipynb")
    kept = cell.replace("    !ls", "    pass").replace("%matplotlib inline", "pass")
    assert converted.source == kept + "\n"
    namespace: dict[str, object] = {}
    exec(compile(converted.source, "w.py", "exec"), namespace)  # noqa: S102 - the joined cells, as graded
    assert namespace["same"] is True and namespace["note"] == "\n%not a magic\n"
    assert converted.notes() == ["not graded (not Python, or grading itself): magics (%), shell lines (!)"]


@pytest.mark.parametrize(("line", "statement"), [
    ("%time grads = backprop(1.0, 2.0)", ("time", "grads = backprop(1.0, 2.0)")),
    ("    %timeit -n 3 -r2 -q f(x)", ("timeit", "    f(x)")),
    ("%prun -s cumulative -q train()", ("prun", "train()")),
    ("%time", ("time", "pass")),
    ("%time -n f()", ("time", "-n f()")),  # %time has no options: its statement as written
    ("%matplotlib inline", None),
    ("x = 1", None),
])
def test_a_timing_magic_is_its_statement(line: str, statement: tuple[str, str] | None) -> None:
    assert timed_statement(line) == statement


def test_what_a_timed_line_assigns_exists_below_it() -> None:
    """%time runs its statement in the notebook: the cells below use what it assigned."""
    converted = convert(notebook_of(("code", "%time grads = sum([1,\n  2])", 2), ("code", "print(grads)", 3)),
                        "w.ipynb")
    assert converted.source == "grads = sum([1,\n  2])\nprint(grads)\n"
    assert converted.notes() == ["not graded (not Python, or grading itself): "
                                 "%time (its statement runs once, untimed)"]


def test_a_notebook_with_continuation_lines_and_timed_lines_scores_full_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "%time graph = build_graph(0.5,\n                           -3.0)", 4))
    cells.insert(4, ("code", 'print("y = %r"\n      % (graph["y"],))\nok = (graph["y"]\n      != None)', 5))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
