"""``grade check`` on the real course, as an instructor runs it before a term: every solution
scores full marks and gets its diagram, every untouched stub scores zero."""

from __future__ import annotations

from pathlib import Path

from coursekit import grade


def test_check_passes_on_the_course_with_every_diagram(answers: Path, tmp_path: Path) -> None:
    run = grade("check", "--out", str(tmp_path), cache=answers, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.rstrip().endswith(", 0 problems"), run.stdout
    assert "no diagram" not in run.stdout
