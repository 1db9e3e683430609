"""A notebook's own ``grader.check``, however it is spelled, runs and does nothing when the
notebook is graded: it never raises, never scores 0, and is never told as a forbidden import."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebook_intake import SOLUTION, grade_json, notebook_of, solution_cells

from grader.course import notebook
from grader.course.notebook import convert

SPELLINGS = [
    'from grader import check\ncheck("ex03", lang="zh")',
    'import grader as g\ng.check("ex03")',
    'import grader\n结果 = grader.check("ex03")\n结果',
    'import grader\nprint(grader.check("ex03", lang="zh"))',
    'from grader import check as c\nc("ex03")',
    'grader.check("ex03")',
    'import grader.notebook_check\ngrader.notebook_check.check("ex03")\ngrader.check("ex03")',
    'import grader.notebook_check as nc\nnc.check("ex03")',
    'from grader.notebook_check import check\ncheck("ex03")',
    'from grader import check, notebook_check\ncheck("ex03")\nnotebook_check.check("ex03")',
    'from grader import (\n    check as c,\n)\nc("ex03")',
]


@pytest.mark.parametrize("cell", SPELLINGS)
def test_every_spelling_of_the_check_runs_and_does_nothing(cell: str) -> None:
    converted = convert(notebook_of(("code", "x = 1"), ("code", cell)), "w.ipynb")
    exec(compile(converted.source, "w.py", "exec"), {})  # noqa: S102 - the joined cells, as graded
    assert "import" not in converted.source.split("x = 1")[1]
    assert converted.notes() == ["grader.check() does nothing when graded: the cells are what is graded"]


@pytest.mark.parametrize("cell", SPELLINGS[:4] + SPELLINGS[6:])
def test_a_notebook_that_checks_itself_scores_full_marks_and_is_not_flagged(
        cell: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cells = solution_cells()[:-1] + [("code", cell, 5)]
    work = tmp_path / "work.ipynb"
    work.write_bytes(notebook_of(*cells))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0
    assert "may not import" not in str(graded)


def test_a_second_check_in_a_kernel_grades_the_first_one_as_doing_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The kernel's history holds the first check() the student ran: the second check grades it
    as the stand-in, not as a NameError."""
    functions = SOLUTION.read_text(encoding="utf-8")
    history = [("code", "from grader import check", 1), ("code", functions, 2), ("code", "check('ex03')", 3),
               ("code", functions, 4)]
    work = tmp_path / "session.ipynb"
    work.write_bytes(notebook_of(*history, metadata={"micrograph": notebook.HISTORY}))
    graded = grade_json(monkeypatch, capsys, tmp_path, work)
    assert graded["score"] == graded["max_score"] > 0


@pytest.mark.parametrize(("cell", "kept"), [
    ('import grader, math\ngrader.check("ex03")', "import math"),
    ('from grader import check, judge\ncheck("ex03")', "from grader import judge"),
])
def test_only_what_the_check_does_not_need_stays_imported(cell: str, kept: str) -> None:
    """An import that names the check with other names: the check is stood in, the other names
    stay imported, so a flag for the grader's own modules names what is really imported."""
    converted = convert(notebook_of(("code", cell)), "w.ipynb")
    assert converted.source.splitlines()[converted.starts[0] - 1] == kept
    assert converted.notes() == ["grader.check() does nothing when graded: the cells are what is graded"]
