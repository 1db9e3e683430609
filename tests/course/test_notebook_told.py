"""What a notebook's feedback names is where the student finds it, and what the grader refuses
of IPython is said as what it is.

A notebook is graded as its code cells joined into one module.  A star import was told at "line 2"
of that module, a line the student never saw; a "try it" cell that bound a function's name to
None was told as an error "raised while the test used what your code returned"; a cell magic or
``%run`` written as a call of ``get_ipython()`` was said as ``get_ipython()`` alone, or not at all;
``import IPython.display`` stopped the cells; and a notebook that printed before a cell raised
showed the same error under every test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_notebook_intake import REPO, notebook_of, solution_cells

from grader.cli.app import main
from grader.course.notebook import convert

GALLERY = REPO / "tests" / "exercises" / "gallery"


def _graded(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
            exercise: str, cells: list[tuple[str, str, int] | tuple[str, str]], *extra: str) -> str:
    """The grade of a notebook of ``cells`` for ``exercise``, as the terminal shows it (``--json``
    among ``extra``: as JSON)."""
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    monkeypatch.chdir(REPO)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([exercise, "--submission", str(work), "--out", str(tmp_path / "g"), *extra])
    return capsys.readouterr().out


def _star_cells(name: str) -> list[tuple[str, str, int] | tuple[str, str]]:
    """A gallery answer of ex13 whose imports bind micrograph's built-ins, as a notebook: a Markdown
    cell, a cell of its own, the imports (cell 3), the functions (cell 4)."""
    source = (GALLERY / "ex13" / name).read_text(encoding="utf-8").split("from __future__ import annotations\n")[1]
    cut = source.index("\ndef ")
    return [("markdown", "# ex13"), ("code", "x = 1", 1), ("code", source[:cut], 2), ("code", source[cut + 1:], 3)]


def test_a_star_import_is_named_by_its_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Where the answer is a Value (micrograph's sum), and where micrograph's abs raised."""
    summed = json.loads(_graded(monkeypatch, capsys, tmp_path, "ex13", _star_cells("star_import_sum.py"), "--json"))
    said = " ".join(t["feedback"] for t in summed["exercises"][0]["tests"])
    assert "`from micrograph import *` at cell 3 (In [2]), line 2 put it in place of Python's built-in sum" in said
    keyed = json.loads(_graded(monkeypatch, capsys, tmp_path, "ex13", _star_cells("star_import_abs_key.py"), "--json"))
    said = " ".join(t["feedback"] for t in keyed["exercises"][0]["tests"])
    assert "`from micrograph import *` at cell 3 (In [2]), line 2 put it in place of Python's built-in abs" in said


def test_a_function_a_try_it_cell_rebinds_is_named_with_that_cell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    source = (REPO / "solutions" / "ex05_accumulation.py").read_text(encoding="utf-8")
    cut = source.index("\ndef grad_history")
    cells = [("code", source[:cut], 1), ("code", source[cut + 1:], 2), ("markdown", "## try it"),
             ("code", "w, x = Value(1.0, requires_grad=True), Value(2.0)\nzero_grad = zero_grad([w, x], False)", 4)]
    graded = json.loads(_graded(monkeypatch, capsys, tmp_path, "ex05", cells, "--json"))
    said = {t["name"]: t["feedback"] for t in graded["exercises"][0]["tests"]}
    assert said["zero_grad clears every leaf"].startswith(
        "The test called zero_grad, but zero_grad is no longer the function defined at cell 1 (In [1]), line ")
    assert ": cell 4 (In [4]), line 2 binds the name zero_grad again" in said["zero_grad clears every leaf"]
    assert "used what your code returned" not in " ".join(said.values())


def test_a_cell_magic_or_run_written_as_a_call_is_named_as_the_magic() -> None:
    cells = [("code", "get_ipython().run_cell_magic('time', '', 'y = 1\\n')", 3),
             ("code", "get_ipython().run_line_magic('run', 'helpers.py')", 4)]
    notes = convert(notebook_of(*cells), "w.ipynb").notes()
    assert any(note.endswith("not there when graded: get_ipython(), called to run the cell magic %%time "
                             "(cell 1 (In [3]), line 1)") for note in notes), notes
    assert any(note.startswith("%run helpers.py (cell 2 (In [4]), line 1) is not run when graded") for note in notes)


def test_ipython_display_imported_as_the_package_stands_in(capsys: pytest.CaptureFixture[str]) -> None:
    converted = convert(notebook_of(("code", "import IPython.display\nIPython.display.display(1)\n"
                                             "IPython.display.clear_output()\nprint(IPython.display.Markdown('m'))", 2)),
                        "w.ipynb")
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert capsys.readouterr().out == "1\nm\n"
    assert "IPython.display holds only display, Markdown, HTML, Latex, Math and clear_output when graded: " \
           "display() prints the repr of each object it is given" in converted.notes()


def test_a_notebook_that_printed_and_did_not_load_is_one_sentence_and_its_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = [*solution_cells()[:-1], ("code", "print('built', 1 + 1)", 5), ("code", "1 / 0", 6)]
    shown = _graded(monkeypatch, capsys, tmp_path, "ex03", cells)
    assert "no test ran (0/14):" in shown and "the same error as in" not in shown, shown
    assert "the submission's output, 1 line:" in shown and "| built 2" in shown
