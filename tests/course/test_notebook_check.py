"""``grader.check`` in a real notebook, executed by nbclient on an ipykernel (the test extra):
the exercise filled in code cells, the output holds the score, the feedback and the diagram."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

import grader  # noqa: E402
from grader.report.svg import esc  # noqa: E402
from grader.report.terminal import told_once  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SOLUTION = REPO / "solutions" / "ex03_retain_grad.py"
STUB = REPO / "exercises" / "ex03_retain_grad.py"


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: Path) -> Path:
    """A course folder with ex03's stub and solution, and a notebooks/ folder to run in; a
    copy of the run's cache of expected answers (tests/conftest.py), where the solution's
    answers are found by what they depend on, not by the folder: it is not run again per test."""
    for folder, source in (("exercises", STUB), ("solutions", SOLUTION)):
        (tmp_path / folder).mkdir()
        shutil.copy(source, tmp_path / folder / source.name)
    (tmp_path / "notebooks").mkdir()
    monkeypatch.setenv("GRADE_CACHE_DIR", str(shutil.copytree(answers, tmp_path / "cache")))
    return tmp_path


def run_notebook(cells: list, folder: Path) -> list[dict]:
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(folder)}})
    client.execute()
    return notebook.cells[-1].outputs


def test_check_in_a_notebook_shows_score_feedback_and_diagram(course: Path) -> None:
    source = SOLUTION.read_text(encoding="utf-8")
    head, rest = source.split("\ndef grad_warning", 1)
    _, tail = rest.split("\ndef backward_retaining", 1)
    cells = [nbformat.v4.new_markdown_cell("# ex03: fill in the functions"),
             nbformat.v4.new_code_cell("%load_ext autoreload\n" + head),
             nbformat.v4.new_code_cell('def grad_warning(v):\n'
                                       '    raise NotImplementedError("ex03: grad_warning")'),
             nbformat.v4.new_code_cell("def backward_retaining" + tail),
             nbformat.v4.new_code_cell('import grader\ngrader.check("ex03")')]
    outputs = run_notebook(cells, course / "notebooks")
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "total: 11/14" in html  # grad_warning's 3 points are missing
    text = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "../grades/ex03/graph.svg" in text, text  # the path that opens from the notebook's folder
    assert "still raises NotImplementedError: fill in grad_warning" in html
    assert "this notebook" in html and "<svg" in html and "magics (%)" in html
    assert "Traceback" not in str(outputs) and "grade-check-" not in html  # no temporary path
    page = re.search(r'<iframe sandbox="allow-scripts" [^>]*resize:vertical[^>]*srcdoc="([^"]*)"', html)
    assert page is not None and "watch this backward run, step by step" in html
    assert "backward(), step by step" in unescape(page.group(1))  # the page itself, embedded
    assert not re.search(r"(src|href)=.https?:", unescape(page.group(1)))  # nothing to fetch


def test_an_error_is_named_by_the_in_number_jupyter_shows(course: Path) -> None:
    """The code cells run as In [1], In [2], ...: the feedback names the cell that way."""
    source = SOLUTION.read_text(encoding="utf-8")
    head, rest = source.split("\ndef grad_warning", 1)
    _, tail = rest.split("\ndef backward_retaining", 1)
    cells = [nbformat.v4.new_markdown_cell("# ex03"),
             nbformat.v4.new_code_cell(head),
             nbformat.v4.new_code_cell("def grad_warning(v):\n    return 1 / 0"),
             nbformat.v4.new_code_cell("def backward_retaining" + tail),
             nbformat.v4.new_code_cell('import grader\ngrader.check("ex03")')]
    outputs = run_notebook(cells, course / "notebooks")
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "ZeroDivisionError" in html and "In [2], line 2" in html
    assert "In [N] is the number Jupyter and Colab showed left of the cell when it ran" in html


def test_check_outside_a_notebook_prints_what_grade_prints(
        course: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(course / "notebooks")
    checked = grader.check("ex03")
    printed = capsys.readouterr().out
    assert printed.strip() == checked.text.strip()
    assert printed.startswith("ex03  retain_grad keeps a non-leaf's gradient  (../exercises/ex03_retain_grad.py)\n"
                              "  not started (0/14): every function the tests call still raises")
    assert "not started" in checked._repr_html_()


def test_a_sentence_told_once_is_shown_whole_not_as_the_terminal_wrapped_it(
        course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal breaks a long sentence into lines, in Chinese inside a word: the notebook's
    view shows the sentence as said (no space where a line broke), each note a paragraph."""
    monkeypatch.chdir(course / "notebooks")
    monkeypatch.setenv("COLUMNS", "40")
    checked = grader.check("ex03", lang="zh")
    said = told_once(checked.result)
    assert said is not None and len(checked.text.splitlines()) > 2  # wrapped in the text
    assert f"<p>{esc(said)}</p>" in checked._repr_html_()


def test_check_at_pythons_prompt_shows_its_text_once(tmp_path: Path) -> None:
    """The prompt prints the returned value: ``check`` printing too showed the report twice."""
    typed = 'import grader\ngrader.check("exx")\nchecked = grader.check("exx")\n'
    shell = subprocess.run([sys.executable, "-i", "-q"], input=typed, capture_output=True, text=True,
                           cwd=tmp_path, check=True)
    assert (shell.stdout + shell.stderr).count("'exx' is not an exercise") == 1, shell
    script = subprocess.run([sys.executable, "-c", typed], capture_output=True, text=True,
                            cwd=tmp_path, check=True)
    assert script.stdout.count("'exx' is not an exercise") == 2, script


@pytest.mark.parametrize("name, words", [("ex99", "no exercise ex99"),
                                         ("nope", "is not an exercise")])
def test_check_errors_are_one_sentence(course: Path, monkeypatch: pytest.MonkeyPatch,
                                       name: str, words: str) -> None:
    monkeypatch.chdir(course)
    checked = grader.check(name)
    assert words in checked.text and "\n" not in checked.text
    assert checked._repr_html_().count("<p>") == 1


def test_check_without_any_code_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    checked = grader.check("ex03")
    assert checked.problem is not None and "found no code for ex03" in checked.problem


def test_each_diagram_under_its_own_note(tmp_path: Path) -> None:
    """A note naming a picture (``difference.svg: ...``) stands right above that picture, not above
    every picture shown: graph.svg, drawn first, gets no note that names another file."""
    from grader.judge.grading import ExerciseResult, TestResult
    from grader.notebook_view import Checked, html_view

    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>{}</title></svg>'
    graph, difference = tmp_path / "graph.svg", tmp_path / "difference.svg"
    graph.write_text(svg.format("drawn-one"), encoding="utf-8")
    difference.write_text(svg.format("drawn-two"), encoding="utf-8")
    note = f"{difference}: the first node where it differs has a thick blue border"
    result = ExerciseResult("ex08", "detach", [TestResult("t", True, 0, 1, "failed", "differs")],
                            diagrams=[str(graph), str(difference)], notes=[note])
    page = html_view(Checked("ex08", svgs=[str(graph), str(difference)], result=result))
    assert page.count(esc(note)) == 1
    assert page.index("drawn-one") < page.index(esc(note)) < page.index("drawn-two"), page


def test_a_test_s_name_keeps_a_readable_width_beside_long_feedback() -> None:
    """Beside a long feedback cell a browser narrows the first column to a word or two a line (a
    Chinese name broke every four characters): the view keeps it a few words wide."""
    from grader.judge.grading import ExerciseResult, TestResult
    from grader.notebook_view import Checked, html_view

    result = ExerciseResult("ex03", "retain_grad", [TestResult("retain_grad on every choice of names", False, 0, 1,
                                                               "failed", "differs " * 80)])
    page = html_view(Checked("ex03", result=result))
    assert ".mg-check td:first-child{min-width:" in page and "<td>retain_grad on every choice of names</td>" in page
