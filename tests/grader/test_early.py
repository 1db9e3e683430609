"""The diagram record reaches the parent before the child ends (``grader.sandbox.early``), and
drawing it then (``grader.judge.diagram.Warming``) changes nothing a student gets."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from grader.course.folder import Course
from grader.judge import diagram
from grader.judge.grading import sandbox_run
from grader.sandbox.child.wire import DiagramRecord
from grader.sandbox.early import FirstDiagram
from grader.sandbox.session import run_children

REPO = Path(__file__).resolve().parents[2]
IMPORT = {"kind": "import", "error": None}
DIAGRAM = {"kind": "diagram", "graph": None, "trace": None, "error": None}
TEST = {"kind": "test", "name": "t", "obs": 1, "error": None}


def _lines(*records: dict) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def _fed(data: bytes, chunk: int) -> list[DiagramRecord]:
    """The records given to the callback when ``data`` arrives ``chunk`` bytes at a time."""
    got: list[DiagramRecord] = []
    first, received = FirstDiagram(got.append), bytearray()
    for at in range(0, len(data), chunk):
        received += data[at:at + chunk]
        first.feed(received)
    return got


@pytest.mark.parametrize("chunk", [1, 7, 1 << 16])
def test_the_diagram_record_is_handed_on_once_whatever_the_chunks(chunk: int) -> None:
    data = _lines({"kind": "confined", "layers": []}, IMPORT, DIAGRAM, TEST, DIAGRAM)
    assert _fed(data, chunk) == [DIAGRAM]


def test_nothing_is_handed_on_past_the_diagrams_place_or_a_malformed_line() -> None:
    assert _fed(_lines(IMPORT, TEST, DIAGRAM), 5) == []
    assert _fed(b"{not json\n" + _lines(DIAGRAM), 5) == []
    assert _fed(_lines(IMPORT) + b'{"kind": "diagram"', 3) == []  # not a whole line yet


@pytest.fixture
def course(answers: Path) -> Course:
    return Course(REPO, cache_dir=answers)


def test_the_child_hands_on_the_record_it_reports(course: Course, tmp_path: Path) -> None:
    """Alone and in a shared child: the callback gets the very record the report keeps."""
    ex01, ex03 = course.load("ex01"), course.load("ex03")
    got: list[DiagramRecord] = []
    runs = [sandbox_run(ex, REPO / "solutions" / f"{ex.spec.module}.py", tmp_path / ex.spec.id)
            for ex in (ex01, ex03)]
    runs = [dataclasses.replace(r, early=got.append) for r in runs]
    alone = run_children(runs[:1])
    together = run_children(runs)
    assert [r.diagram for r in alone + together] == got
    assert all(r is not None and r["graph"] is not None for r in got)


def test_warming_draws_in_a_folder_of_its_own_and_render_gives_the_same_files(
        course: Course, tmp_path: Path) -> None:
    ex = course.load("ex01")
    run = sandbox_run(ex, REPO / "solutions" / "ex01_graph.py", tmp_path / "ex01")
    record = run_children([run])[0].diagram
    assert record is not None
    warming = diagram.Warming(("svg",))
    warming.hook(tmp_path / "warmed" / "ex01")(record)
    warming.join()
    assert not (tmp_path / "warmed").exists()  # the student's folder is render's alone
    drawn = [diagram.render(record, tmp_path / name / "ex01", display="ex01_graph.py",
                            limits=ex.spec.limits, why_missing="") for name in ("warmed", "cold")]
    names = [sorted(Path(p).name for p in d.paths) for d in drawn]
    assert names[0] == names[1] and "backward.html" in names[0]
    for name in names[0]:
        assert ((tmp_path / "warmed" / "ex01" / name).read_bytes()
                == (tmp_path / "cold" / "ex01" / name).read_bytes())
