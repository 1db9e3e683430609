"""A notebook whose cells ran in the student's kernel and raise when graded is told why the
grader's run differs: it has no IPython history, only micrograph and the standard library, and
runs every cell from the top; a function defined in two cells is told, with the one graded."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebook_intake import grade_json, notebook_of, solution_cells

from grader.course import notebook
from grader.course.notebook import convert


@pytest.mark.parametrize("cells, said", [
    ([("code", "build_graph(0.5, -3.0)", 4), ("code", "graph = _", 5)],
     "raised NameError when its cells ran as plain Python, without IPython, as the grader runs them "
     "(cell 5 (In [5]), line 1): name '_' is not defined. _ is IPython's history of outputs or inputs, "
     "which plain Python has not"),
    ([("code", "import matplotlib.pyplot as plt\nplt.plot([1, 2])", 4)],
     "raised ModuleNotFoundError when its cells ran (cell 4 (In [4]), line 1): No module named 'matplotlib'. "
     "The cells are graded with micrograph and the standard library only: matplotlib is not there"),
    ([("code", "from google.colab import drive\ndrive.mount('/content/drive')", 4)],
     "raised ModuleNotFoundError when its cells ran (cell 4 (In [4]), line 1): No module named 'google'. "
     "google.colab exists only in Colab"),
    ([("code", "w0 = float(input('w = '))\nprint(build_graph(w0, -3.0))", 4)],
     "raised EOFError when its cells ran (cell 4 (In [4]), line 1): EOF when reading a line. input() reads nothing "
     "when graded: no one types, so it raises; write the value into the cell instead of asking for it"),
    ([("code", "w = build_graph(0.5, -3.0)['w']\nw.data += 1\nraise RuntimeError('as the statement shows.')", 4)],
     "raised RuntimeError when its cells ran (cell 4 (In [4]), line 3): as the statement shows. The grader runs "
     "the cells from the top, as Run All does, and the first cell that raises stops them all"),
])
def test_a_cell_that_raises_when_graded_is_told_why_the_run_differs(
        cells: list[tuple[str, str, int]], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*solution_cells()[:-1], *cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == 0
    assert said in graded["exercises"][0]["tests"][0]["feedback"]


def test_a_function_defined_in_two_cells_is_told_with_the_one_graded() -> None:
    cells = [("code", "def f(x):\n    return helper(x)", 9), ("markdown", "# below"),
             ("code", "def helper(x):\n    return x\n\ndef f(x):\n    return x + 1", 4)]
    assert "f is defined in cell 1 (In [9]), cell 3 (In [4]): the cells are graded from the top, so the one " \
           "in cell 3 (In [4]) is graded" in convert(notebook_of(*cells), "w.ipynb").notes()
    assert convert(notebook_of(*cells, metadata={"micrograph": notebook.HISTORY}), "this notebook").notes() == []


def test_a_name_a_file_run_by_percent_run_defines_is_tied_to_that_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``%run helpers.py`` ran in Jupyter and defined build_graph; graded, the notebook runs alone
    and the line is not run: the NameError is said with the line and the file that defined it."""
    cells = solution_cells()
    source = cells[1][1] + cells[2][1]
    cut = source.index("\ndef build_graph")
    end = source.index("\ndef ", cut + 1)
    (tmp_path / "helpers.py").write_text("import micrograph\nfrom micrograph import Value\n" + source[cut:end],
                                         encoding="utf-8")
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(("code", "%run helpers.py", 1), ("code", source[:cut] + source[end:], 2)))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)["exercises"][0]
    assert graded["score"] < graded["max_score"]
    assert "build_graph, which the NameError names, is defined in helpers.py, which %run helpers.py (cell 1 " \
           "(In [1]), line 1) ran in Jupyter" in " ".join(graded["notes"])
    other = convert(notebook_of(("code", "%run other.py"), ("code", "%%writefile mine.py\nx = 1"),
                                ("code", "%run mine.py")), "w.ipynb")
    assert [note for note in other.notes() if note.startswith("%run")] == [
        "%run other.py (cell 1, line 1) is not run when graded: the notebook is graded alone, without the files beside "
        "it, so what other.py defines is not there in the cells below it; copy the code they need from other.py into "
        "a cell"]


def test_a_module_a_writefile_cell_writes_is_told_as_never_written_when_graded() -> None:
    """``%%writefile mine.py`` then ``from mine import *`` ran in Jupyter: graded, no file is
    written, and the note says so where the cells' ModuleNotFoundError names that module."""
    converted = convert(notebook_of(("markdown", "# ex"), ("code", "%%writefile mine.py\nx = 1", 3),
                                    ("code", "from mine import *", 4)), "w.ipynb")
    failure = "w.ipynb raised ModuleNotFoundError when its cells ran (cell 3 (In [4]), line 1): No module named 'mine'"
    assert "mine.py is written by the %%writefile cell (cell 2 (In [3]), line 1) when Jupyter runs it; graded, that " \
           "cell writes no file" in " ".join(converted.notes(failure))
    assert not any("mine.py is written" in note for note in converted.notes())
