"""An import of IPython's is read as Python reads it, over its whole logical line: the names
with a stand-in are taken out of it, wherever they are written (brackets over several lines,
``as`` names), and only the rest stays imported, so the notes name only what is not there."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebook_intake import grade_json, notebook_of, solution_cells

from grader.course.notebook import convert

_WITHOUT = ("the grader runs your cells as plain Python, without IPython, standing in only for display, "
            "Markdown, HTML, Latex, Math and clear_output; not there when graded: ")


@pytest.mark.parametrize(("cell", "kept"), [
    ("from IPython.display import (\n    Markdown,\n    HTML)\ndisplay(Markdown('a'), HTML('b'))", None),
    ("from IPython.display import (Markdown as md,  # the text\n    clear_output)\nclear_output()\ndisplay(md('a'))",
     None),
    ("from IPython.display import \\\n    display\ndisplay('a')", None),
    ("from IPython.display import display, Audio\ndisplay('a')", "from IPython.display import Audio"),
    ("from IPython.display import (\n    display,\n    Audio as A,\n)\ndisplay('a')",
     "from IPython.display import Audio as A"),
    ("import IPython.display as ipd\nipd.display(ipd.Markdown('**y**'), 1)\nipd.clear_output(wait=True)", None),
])
def test_only_the_names_without_a_stand_in_stay_imported(cell: str, kept: str | None) -> None:
    converted = convert(notebook_of(("code", "x = 1"), ("code", cell, 2)), "w.ipynb")
    lines = converted.source.splitlines()
    first = converted.starts[1] - 1
    assert lines[first] == (kept or "pass")
    assert "not graded (not Python, or grading itself): imports from IPython" in converted.notes()
    if kept is None:
        exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
        assert not any(note.startswith(_WITHOUT) for note in converted.notes())
    else:
        name = kept.split()[3]
        assert _WITHOUT + f"{name} (cell 2 (In [2]), line 1)" in converted.notes()
        assert "display() is Jupyter's own: when graded, it prints the repr of each object it is given" \
            in converted.notes()


def test_a_star_import_of_ipython_is_named_by_its_module() -> None:
    converted = convert(notebook_of(("code", "from IPython.display import *\ndisplay(1)")), "w.ipynb")
    assert _WITHOUT + "IPython.display.* (cell 1, line 1)" in converted.notes()


def test_the_lines_of_an_import_keep_their_place() -> None:
    """An import over three lines is three lines when graded: the cell's lines below it keep
    their numbers."""
    converted = convert(notebook_of(("code", "from IPython.display import (\n    Markdown,\n    Audio)\n1 / 0")),
                        "w.ipynb")
    lines = converted.source.splitlines()
    assert lines[converted.starts[0] - 1:] == ["from IPython.display import Audio", "", "", "1 / 0"]
    assert converted.where(converted.starts[0] + 3) == "cell 1, line 4"


def test_a_notebook_with_an_import_over_several_lines_scores_full_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "from IPython.display import (\n    Markdown,\n    display,\n)\n"
                             "display(Markdown('y = ' + repr(build_graph(0.5, -3.0)['y'])))", 4))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
    assert "ModuleNotFoundError" not in str(graded)


def test_ipython_display_imported_as_a_module_says_what_it_holds() -> None:
    """``import IPython.display as ipd`` then ``ipd.display(...)``: the module is stood in by one
    holding the names that have a stand-in, and the notes say which, where the cells once failed
    on the import; the rest of its import statement stays."""
    converted = convert(notebook_of(("code", "import IPython.display as ipd\nipd.display(ipd.Latex('y'))", 2)),
                        "w.ipynb")
    assert "IPython.display, imported as ipd, holds only display, Markdown, HTML, Latex, Math and clear_output " \
           "when graded: display() prints the repr of each object it is given" in converted.notes()
    converted = convert(notebook_of(("code", "import math, IPython.core.display as d\nd.display(d.HTML('b'), math.pi)")),
                        "w.ipynb")
    assert converted.source.splitlines()[-2:] == ["import math", "d.display(d.HTML('b'), math.pi)"]
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
