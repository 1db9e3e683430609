"""The benchmark's generated class: the mix it claims, in forms the batch reads (no grading)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.grading import HOSTILE, make_class

from grader.course import catalog
from grader.course.intake import collect


def test_a_generated_class_mixes_kinds_and_forms(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    kinds = make_class(folder, 40, seed=3)
    assert sum(kinds.values()) == 40 and kinds["correct"] and kinds["partly wrong"]
    assert any(k.startswith("hostile (") and k[9:-1] in HOSTILE for k in kinds)
    entries = sorted(folder.iterdir())
    assert len(entries) == 40 and {e.suffix for e in entries} == {"", ".zip"}
    modules = {i: catalog.load(i).spec.module for i in catalog.exercise_ids()}
    (tmp_path / "work").mkdir()
    for entry in entries:
        found = collect(entry, modules, tmp_path / "work", shown=entry.name)
        assert found.error is None and not found.problems
        assert len(found.files) >= len(modules) - 3
