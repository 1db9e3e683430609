"""A ``.ipynb`` handed in wherever a ``.py`` is: code cells joined in order, IPython-only lines
dropped (and said), errors named by cell and line, the notebook read as untrusted data."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from grader.cli.app import main
from grader.course import notebook
from grader.course.intake import collect
from grader.course.notebook import NotebookError, convert

REPO = Path(__file__).resolve().parents[2]
SOLUTION = REPO / "solutions" / "ex03_retain_grad.py"


def notebook_of(*cells: tuple[str, str] | tuple[str, str, int], metadata: dict | None = None
                ) -> bytes:
    """A version-4 notebook with (cell_type, source[, execution count]) cells, sources as lists
    of lines."""
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata or {},
                       "cells": [{"cell_type": cell[0], "metadata": {},
                                  "source": cell[1].splitlines(keepends=True),
                                  **({"outputs": [], "execution_count": (cell + (None,))[2]}
                                     if cell[0] == "code" else {})}
                                 for cell in cells]}).encode()


def solution_cells() -> list[tuple[str, str]]:
    """ex03's solution cut into two code cells at its first function, with notebook noise."""
    source = SOLUTION.read_text(encoding="utf-8")
    cut = source.index("\ndef ")
    return [("markdown", "# ex03\nfill in the functions"),
            ("code", "%matplotlib inline\n!pip install micrograph\n" + source[:cut]),
            ("code", source[cut:]),
            ("code", "import grader\ngrader.check(\"ex03\")")]


def test_cells_are_joined_line_for_line_and_named_back() -> None:
    converted = convert(notebook_of(("markdown", "# title"), ("code", "a = 1\nb = 2"),
                                    ("raw", "not code"), ("code", "if a:\n    !ls\nc = 3")),
                        "work.ipynb")
    assert converted.source == "a = 1\nb = 2\nif a:\n    pass\nc = 3\n"
    assert converted.notes() == ["not graded (not Python, or grading itself): shell lines (!)"]
    assert converted.where(2) == "cell 2, line 2"
    assert converted.where(5) == "cell 4, line 3"
    assert "cells are counted from the top of the notebook, Markdown cells included" in \
        converted.notes()[-1]


def test_a_cell_that_ran_is_also_named_by_the_number_jupyter_shows_beside_it() -> None:
    converted = convert(notebook_of(("markdown", "# title"), ("code", "a = 1", 7),
                                    ("code", "b = 2"), ("code", "c = 3", True)), "w.ipynb")
    assert [converted.where(line) for line in (1, 2, 3)] == [
        "cell 2 (In [7]), line 1", "cell 3, line 1", "cell 4, line 1"]


def test_a_kernels_history_is_named_by_its_in_numbers_only() -> None:
    converted = convert(notebook_of(("code", "a = 1", 1), ("code", "b = 2\nc = 3", 2),
                                    metadata={"micrograph": notebook.HISTORY}), "this notebook")
    assert converted.where(3) == "In [2], line 2"
    assert converted.notes() == ["In [N] is the number Jupyter and Colab showed left of the cell "
                                 "when it ran; lines count from 1 in each cell"]


def test_cell_magics_drop_non_python_cells_and_keep_timed_code() -> None:
    converted = convert(notebook_of(("code", "%%bash\necho hi"), ("code", "%%time\nx = 1")),
                        "w.ipynb")
    assert converted.source == "pass\npass\npass\nx = 1\n"
    assert converted.notes() and "%%bash cells" in converted.notes()[0]


def test_a_notebook_without_magics_says_nothing() -> None:
    assert convert(notebook_of(("code", "x = 1")), "w.ipynb").notes() == []


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe not json", "not JSON"),
    (b"[1, 2]", "no cells"),
    (b'{"cells": {"a": 1}}', "no list of cells"),
    (b'{"cells": [{"cell_type": "code", "source": 7}]}', "not text"),
    (b'{"cells": [{"cell_type": "code", "source": ["a", 3]}]}', "not text"),
    (b'{"worksheets": []}', "format 3"),
    (b"[" * 100_000 + b"]" * 100_000, "not JSON"),
])
def test_malformed_notebooks_are_one_sentence(data: bytes, words: str) -> None:
    with pytest.raises(NotebookError, match=words):
        convert(data, "work.ipynb")


def test_a_notebook_saved_with_a_byte_order_mark_is_read_as_its_json() -> None:
    """PowerShell's ``Set-Content -Encoding UTF8`` and some editors start the file with a UTF-8
    BOM: the JSON after it is the notebook, as a .py with a BOM is the source after it."""
    converted = convert(b"\xef\xbb\xbf" + notebook_of(("code", "x = 1\r\ny = 2")), "work.ipynb")
    assert converted.source == "x = 1\ny = 2\n"


def test_an_oversized_notebook_is_refused_before_parsing() -> None:
    with pytest.raises(NotebookError, match="larger than"):
        convert(b" " * (notebook.MAX_NOTEBOOK_BYTES + 1), "big.ipynb")


def test_intake_finds_notebooks_in_folders_and_zips(tmp_path: Path) -> None:
    folder = tmp_path / "alice"
    folder.mkdir()
    (folder / "ex03_work.ipynb").write_bytes(notebook_of(*solution_cells()))
    with zipfile.ZipFile(tmp_path / "bob.zip", "w") as archive:
        archive.writestr("hw/ex03_retain_grad.ipynb", notebook_of(*solution_cells()))
    (tmp_path / "carol.ipynb").write_bytes(b"{broken")
    modules = {"ex03": "ex03_retain_grad"}
    alice = collect(folder, modules, tmp_path, shown="alice")
    bob = collect(tmp_path / "bob.zip", modules, tmp_path, shown="bob.zip")
    carol = collect(tmp_path / "carol.ipynb", modules, tmp_path, shown="carol.ipynb",
                    single="ex03")
    assert alice.files["ex03"].name == "ex03_work.ipynb"
    assert bob.files["ex03"].suffix == ".ipynb"
    assert "not a notebook" in carol.problems["ex03"]


def grade_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               tmp_path: Path, submission: Path) -> dict:
    monkeypatch.chdir(REPO)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["ex03", "--submission", str(submission), "--json", "--out", str(tmp_path / "g")])
    return json.loads(capsys.readouterr().out)


def test_a_notebook_scores_what_the_same_python_file_scores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*solution_cells()))
    as_notebook = grade_json(monkeypatch, capsys, tmp_path, work)
    as_python = grade_json(monkeypatch, capsys, tmp_path, SOLUTION)
    assert as_notebook["score"] == as_python["score"] == as_python["max_score"] > 0
    notes = " ".join(as_notebook["exercises"][0]["notes"])
    assert "magics (%)" in notes and "shell lines (!)" in notes and "grader.check" in notes
    monkeypatch.setenv("MICROGRAPH_LANG", "zh")  # a note about the notebook in its language's punctuation
    note = grade_json(monkeypatch, capsys, tmp_path, work)["exercises"][0]["notes"][0]
    assert "：没有评分" in note and ": " not in note.split("（")[0], note


def test_an_error_is_named_by_cell_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(2, ("code", "x = 1\nraise ValueError('oops')"))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    feedback = " ".join(t["feedback"] for t in graded["exercises"][0]["tests"])
    assert graded["score"] == 0
    assert "cell 3, line 2" in feedback
    notes = " ".join(graded["exercises"][0]["notes"])
    assert "cells are counted from the top of the notebook, Markdown cells included" in notes


def test_the_diagrams_error_is_named_by_cell_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "def backward_retaining(w, x, names):\n    return {}[names[0]]", 9))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    notes = " ".join(grade_json(monkeypatch, capsys, tmp_path, work)["exercises"][0]["notes"])
    assert "no diagram: your code raised KeyError at cell 4 (In [9]), line 2" in notes


def test_future_imports_of_any_cell_move_to_the_top() -> None:
    converted = convert(notebook_of(("code", "x = 1"),
                                    ("code", "from __future__ import annotations\ny = 2")),
                        "w.ipynb")
    assert converted.source.splitlines()[0] == "from __future__ import annotations"
    compile(converted.source, "w.py", "exec")
    assert converted.where(4) == "cell 2, line 2"


def test_ipython_help_lines_are_not_graded() -> None:
    converted = convert(notebook_of(("code", "x = 1"), ("code", "x?\n??x\nif x:\n    x.real??")), "w.ipynb")
    assert converted.source == "x = 1\npass\npass\nif x:\n    pass\n"
    assert converted.notes() == ["not graded (not Python, or grading itself): help lines (?)"]


def test_display_is_defined_where_a_cell_calls_it(capsys: pytest.CaptureFixture[str]) -> None:
    converted = convert(notebook_of(("code", "from IPython.display import display\nx = {'a': 1}", 3),
                                    ("code", "from __future__ import annotations\ndisplay(x, 'b')")), "w.ipynb")
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert capsys.readouterr().out == "{'a': 1}\n'b'\n"
    assert converted.where(4) == "cell 1 (In [3]), line 2" and converted.where(6) == "cell 2, line 2"
    assert "imports from IPython" in converted.notes()[0]
    assert converted.notes()[1] == "display() is Jupyter's own: when graded, it prints the repr of each object it is given"


def test_a_display_of_the_students_own_is_left_as_it_is() -> None:
    converted = convert(notebook_of(("code", "def display(v):\n    return v\ndisplay(1)")), "w.ipynb")
    assert converted.source == "def display(v):\n    return v\ndisplay(1)\n" and converted.notes() == []


def test_a_notebook_that_displays_and_asks_for_help_scores_full_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "display(build_graph(0.5, -3.0)['y'])\nValue?\nbuild_graph??", 4))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0


def test_the_common_names_of_ipython_display_stand_in_where_a_cell_imports_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A cell that ran in Jupyter runs when graded, without IPython: Markdown, HTML and their kin
    hold their text, display prints it, clear_output does nothing, each under the name imported."""
    converted = convert(notebook_of(("code", "from IPython.display import Markdown as md, HTML, clear_output\n"
                                             "display(md('**y**'), HTML('<b>'))\nclear_output(wait=True)", 2)), "w.ipynb")
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert capsys.readouterr().out == "**y**\n<b>\n"
    assert converted.where(converted.starts[0] + 1) == "cell 1 (In [2]), line 2"
    assert converted.notes()[:4] == [
        "not graded (not Python, or grading itself): imports from IPython",
        "display() is Jupyter's own: when graded, it prints the repr of each object it is given",
        "Markdown, HTML, from IPython.display, hold their text when graded: display() prints it",
        "clear_output(), from IPython.display, does nothing when graded"]


def test_an_ipython_name_with_no_stand_in_is_named_with_its_line() -> None:
    """Audio and get_ipython() are not there when graded: the notes say the cells run without
    IPython and name each with its line, not only that the import raised."""
    converted = convert(notebook_of(("code", "from IPython.display import Markdown, Audio\nx = 1"),
                                    ("code", "ip = get_ipython()\nimport IPython")), "w.ipynb")
    assert converted.source.splitlines()[1] == "from IPython.display import Audio"  # Markdown: its stand-in
    assert "the grader runs your cells as plain Python, without IPython, standing in only for display, " \
           "Markdown, HTML, Latex, Math and clear_output; not there when graded: Audio (cell 1, line 1), " \
           "get_ipython() (cell 2, line 1), IPython (cell 2, line 2)" in converted.notes()


def test_a_notebook_that_shows_markdown_scores_full_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()
    cells.insert(3, ("code", "from IPython.display import Markdown, clear_output\nclear_output()\n"
                             "display(Markdown('**y** = ' + repr(build_graph(0.5, -3.0)['y'])))", 4))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0


def test_a_notebook_that_needs_ipython_is_told_its_cells_ran_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """get_ipython() exists in Jupyter: the error says the grader runs the cells without IPython,
    and the note names what is missing, where "raised NameError when its cells ran" alone was
    untrue of the notebook as the student ran it."""
    cells = solution_cells()
    cells.insert(3, ("code", "shell = get_ipython()\nshell.run_line_magic('load_ext', 'autoreload')", 4))
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)["exercises"][0]
    assert graded["score"] == 0
    assert "raised NameError when its cells ran as plain Python, without IPython, as the grader runs them " \
           "(cell 4 (In [4]), line 1): name 'get_ipython' is not defined" in graded["tests"][0]["feedback"]
    assert "not there when graded: get_ipython() (cell 4 (In [4]), line 1)" in " ".join(graded["notes"])


def test_a_cause_told_once_is_not_said_again_under_no_diagram_with_or_without_its_capital() -> None:
    """grader.check names the file "this notebook": the table's sentence begins "This notebook
    raised ...", the diagram's note "no diagram: this notebook raised ...", the same cause."""
    from grader.judge.grading import IMPORT_ERROR, ExerciseResult, TestResult
    from grader.report.terminal import told_once_notes

    cause = "this notebook raised NameError when its cells ran (In [4], line 1): name 'x' is not defined"
    tests = [TestResult(name, True, 0, 1, "error", cause[:1].upper() + cause[1:]) for name in ("a", "b")]
    result = ExerciseResult("ex03", "t", tests, outcome=IMPORT_ERROR,
                            notes=[f"no diagram: {cause}", "this notebook: not graded: grader.check"])
    assert told_once_notes(result) == ["this notebook: not graded: grader.check"]


def test_a_file_written_by_a_cell_and_run_is_graded_where_the_cell_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """In Jupyter the functions of a %%writefile cell exist once %run runs its file: graded, the
    cell runs where it is; a file written and never run stays not graded, as in Jupyter."""
    source = SOLUTION.read_text(encoding="utf-8")
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(("code", "%%writefile -a ./mine.py\n" + source, 1), ("code", "%run -i mine", 2)))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
    assert "not graded (not Python, or grading itself): %%writefile ./mine.py (its code runs where the cell is: " \
           "%run ./mine.py runs it), magics (%)" in " ".join(graded["exercises"][0]["notes"])
    unrun = convert(notebook_of(("code", "%%writefile mine.py\nx = 1"), ("code", "%run other.py")), "w.ipynb")
    assert unrun.source == "pass\npass\npass\n" and "%%writefile cells" in unrun.notes()[0]
