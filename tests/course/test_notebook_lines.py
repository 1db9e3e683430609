"""IPython's syntax is read only where IPython reads it, at the start of a logical line: a line
that continues a statement is Python whatever it starts with, and a timing magic keeps its
statement."""

from __future__ import annotations

import json
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


_NOT_GRADED = "not graded (not Python, or grading itself): "


@pytest.mark.parametrize(("cell", "graded", "kinds"), [
    ("t = %timeit -o f()  # f's time\nprint(t.average >= 0, t.best == t.worst, len(t.all_runs), t)",
     "t = _timeit_once(lambda: (f()))\nprint(t.average >= 0, t.best == t.worst, len(t.all_runs), t)",
     "%timeit -o (its statement runs once, timed: what it gives holds that one run)"),
    ("t = %timeit -o y = f()", "t = None; y = f()",
     "%timeit (its statement runs once, untimed), what %timeit -o gives (None when graded)"),
    ("t = %timeit -n 3 f()  # no -o: None in IPython too", "t = None; f()  # no -o: None in IPython too",
     "%timeit (its statement runs once, untimed)"),
    ("if True:\n    y = %time f()", "if True:\n    y = f()", "%time (its statement runs once, untimed)"),
    ('d = {}\nd["s"] = %prun -r -s cumulative f()', 'd = {}\nd["s"] = None; f()',
     "%prun (its statement runs once, untimed), what %prun -r gives (None when graded)"),
    ("files = !ls -la", "files = []", "what a shell line (!) gives (an empty list when graded)"),
    ("here = %pwd", "here = None", "magics (%), what %pwd gives (None when graded)"),
    ("t = %timeit -o for i in range(2): f()", "t = None",  # a compound statement: not run, and not said to
     "magics (%), what %timeit -o gives (None when graded)"),
    ("%%timeit -n 2 y = [1, 2]\nsum(y)", "y = [1, 2]\nsum(y)",
     "%%timeit (its setup line and its cell run once, untimed)"),
    ("%%timeit -n 2\nsum([1])", "pass\nsum([1])", "%%timeit lines"),
    ("%%capture --no-stderr out\nprint(1)\nout.show()\nprint(out.stdout, out.outputs)",
     "out = _CapturedIO()\nprint(1)\nout.show()\nprint(out.stdout, out.outputs)",
     "%%capture out (the cell's output is shown, not captured: out holds none)"),
])
def test_a_magic_or_shell_line_on_the_right_of_an_assignment_still_binds_its_name(
        cell: str, graded: str, kinds: str) -> None:
    """IPython reads ``x = %magic`` and ``x = !cmd`` as assignments: the name is bound when graded
    too, so the cells below that use it run, and the notes say what it holds where IPython gave
    something else; a %%timeit cell's setup line runs before its body, which uses what it set."""
    converted = convert(notebook_of(("code", "def f():\n    return 1"), ("code", cell)), "w.ipynb")
    assert converted.source[converted.source.index("def f():"):] == "def f():\n    return 1\n" + graded + "\n"
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert converted.notes() == [_NOT_GRADED + kinds]


def test_a_notebook_that_times_and_lists_files_into_names_scores_full_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "t = %timeit -o build_graph(0.5, -3.0)\nprint(t.average, t)\nfiles = !ls\nprint(len(files))", 4))
    cells.insert(4, ("code", "%%timeit -r 3 graph = build_graph(0.5, -3.0)\ngraph['y'].backward()", 5))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
    assert _NOT_GRADED + "%%timeit (its setup line and its cell run once, untimed), %timeit -o (its statement " \
        "runs once, timed: what it gives holds that one run), magics (%), shell lines (!), what a shell line (!) " \
        "gives (an empty list when graded)" in " ".join(graded["exercises"][0]["notes"])
    monkeypatch.setenv("MICROGRAPH_LANG", "zh")
    notes = " ".join(grade_json(monkeypatch, capsys, tmp_path, work)["exercises"][0]["notes"])
    assert "%timeit -o（它后面的语句只运行一次并计时" in notes and "（评分时是空列表）" in notes


@pytest.mark.parametrize(("cell", "graded", "kinds"), [
    ("get_ipython().run_line_magic('timeit', 'f()')", "f()", "%timeit (its statement runs once, untimed)"),
    ("t = get_ipython().run_line_magic('timeit', '-o f()')", "t = _timeit_once(lambda: (f()))",
     "%timeit -o (its statement runs once, timed: what it gives holds that one run)"),
    ("if True:\n    get_ipython().magic('time y = f()')", "if True:\n    y = f()",
     "%time (its statement runs once, untimed)"),
    ("get_ipython().system('pip install -q micrograph')", "pass", "shell lines (!)"),
    ("files = get_ipython().getoutput('ls')", "files = []", "what a shell line (!) gives (an empty list when graded)"),
    ("get_ipython().run_line_magic(\n    'matplotlib', 'inline')\ny = 2", "pass\n\ny = 2", "magics (%)"),
])
def test_a_magic_spelled_as_a_call_of_get_ipython_is_the_magic_it_spells(cell: str, graded: str, kinds: str) -> None:
    """``get_ipython().run_line_magic('timeit', ...)`` (how Jupyter exports a magic, and how some
    students write one) is the ``%timeit`` line it stands for: its name is a magic's, not an
    attribute's looked up by a computed name, and the line is graded as that magic is."""
    converted = convert(notebook_of(("code", "def f():\n    return 1"), ("code", cell)), "w.ipynb")
    assert converted.source[converted.source.index("def f():"):] == "def f():\n    return 1\n" + graded + "\n"
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert converted.notes() == [_NOT_GRADED + kinds]


def test_a_notebook_timing_a_cell_through_get_ipython_is_graded_and_not_flagged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "get_ipython().run_line_magic('timeit', \"build_graph(0.5, -3.0)['y'].backward()\")", 4))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
    said = json.dumps(graded)
    assert "computed name" not in said and "flagged" not in said
