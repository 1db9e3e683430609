"""``grade release --notebooks``: each notebook holds the statement, the stub and a last cell
calling ``grader.check``, and runs top to bottom in a real kernel (nbclient) with the release's
own grader: nothing raises, the check shows the stub's NotImplementedError and public tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.course.folder import Course
from grader.publish.release import build_release

# One pytest-xdist worker builds the releases of test_release, test_release_zh and
# test_release_notebooks one after the other: the solutions' answers to the public tests, which
# each computes into the run's cache, are computed once (two workers computed them side by side).
pytestmark = pytest.mark.xdist_group("releases")

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    out = tmp_path_factory.mktemp("release-nb") / "course"
    course = Course(REPO, cache_dir=cache)
    build_release(course, [course.load("ex03")], out, notebooks=True)
    return out


def test_the_notebook_holds_statement_stub_and_check(release: Path) -> None:
    document = json.loads((release / "notebooks" / "ex03_retain_grad.ipynb").read_text())
    cells = document["cells"]
    assert cells[0]["cell_type"] == "markdown" and "retain_grad" in "".join(cells[0]["source"])
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert any("raise NotImplementedError" in c for c in code)
    assert code[-1] == 'import grader\ngrader.check("ex03")'
    nbformat.validate(nbformat.reads(json.dumps(document), as_version=4))


def test_the_readme_says_where_the_notebooks_are_and_how_to_check(release: Path) -> None:
    readme = (release / "README.md").read_text(encoding="utf-8")
    assert "`notebooks/` holds one notebook per exercise (such as " \
        "`notebooks/ex03_retain_grad.ipynb`)" in readme
    assert 'import grader\ngrader.check("ex03")' in readme
    assert "`In [7]` is the number Jupyter and Colab show left of the cell" in readme
    assert "py -m venv .venv; .venv\\Scripts\\pip install -e ." in readme  # PowerShell


def test_the_notebook_runs_top_to_bottom_with_the_release_grader(
        release: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PYTHONPATH", str(release))  # the kernel imports the release's grader
    monkeypatch.setenv("GRADE_CACHE_DIR", str(tmp_path / "cache"))
    notebook = nbformat.read(release / "notebooks" / "ex03_retain_grad.ipynb", as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(release / "notebooks")}})
    client.execute()  # raises CellExecutionError if any cell raises
    html = "".join(o.get("data", {}).get("text/html", "") for o in notebook.cells[-1].outputs)
    assert "not started (public 0/" in html and "still raises NotImplementedError" in html
    nbformat.write(notebook, tmp_path / "executed.ipynb")
