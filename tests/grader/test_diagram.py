"""Every submission gets whatever diagram it can: full, partial (before an error), or a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course.folder import Course
from grader.judge.grading import ExerciseResult

pytest.importorskip("micrograph.viz")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def course(answers: Path) -> Course:
    return Course(REPO, cache_dir=answers)


def _grade(course: Course, source: str, tmp_path: Path, stem: str = "ex01_graph") -> ExerciseResult:
    """Grade ``source`` as the submitted file ``stem``.py, as ``grade`` does, so that each test
    states only its edit of the solution and what the diagram notes say of it."""
    path = tmp_path / f"{stem}.py"
    path.write_text(source)
    exercise = stem.split("_")[0]
    return course.grade(course.load(exercise), path, diagram_dir=tmp_path / "grades" / exercise)


def _edited(stem: str, *edits: tuple[str, str]) -> str:
    """The solution ``stem``.py with each (old, new) edit made in turn; each old text stands there
    once, so a solution rewritten since fails here, not as a test of an unchanged file."""
    source = (REPO / "solutions" / f"{stem}.py").read_text()
    for old, new in edits:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


def test_solution_is_drawn(course: Course, tmp_path: Path) -> None:
    result = _grade(course, (REPO / "solutions" / "ex01_graph.py").read_text(), tmp_path)
    assert result.full_marks
    assert "graph.gv" in {Path(p).name for p in result.diagrams}
    assert "MulBackward0" in (tmp_path / "grades" / "ex01" / "graph.gv").read_text()
    assert result.notes in ([], ["diagram: only the .gv source (no renderer)"])


def test_the_backward_the_submission_ran_is_a_page_beside_the_graph(course: Course, tmp_path: Path) -> None:
    result = _grade(course, (REPO / "solutions" / "ex01_graph.py").read_text(), tmp_path)
    page = tmp_path / "grades" / "ex01" / "backward.html"
    assert str(page) in result.diagrams
    text = page.read_text(encoding="utf-8")
    assert '"total": 5' in text and "MulBackward0" in text and "ex01: backward(), step by step" in text


def test_a_forged_trace_gives_no_page_and_no_error(tmp_path: Path) -> None:
    from grader.judge import diagram

    assert diagram._trace({"format": "micrograph.trace/1", "graph": {}, "steps": "x"}, tmp_path) == []
    assert not (tmp_path / "backward.html").exists()


def test_graph_built_before_an_error_is_still_drawn(course: Course, tmp_path: Path) -> None:
    broken = _edited("ex01_graph", ("    y = micrograph.mul(a, b)\n",
                                    "    with micrograph.no_grad():\n        y = micrograph.mul(a, b)\n"))
    result = _grade(course, broken, tmp_path)
    assert not result.full_marks
    assert any(p.endswith("graph.gv") for p in result.diagrams)
    assert "as it was before this error: RuntimeError" in result.notes[0]


def test_a_graph_build_never_recorded_is_drawn_without_blaming_the_function_run_on_it(
        course: Course, tmp_path: Path) -> None:
    """ex11's diagram runs the student's jacobian_rows on what their build made: a loss computed
    under no_grad makes that correct jacobian_rows raise, which the note must not lay on it."""
    broken = _edited("ex11_vjp", ('    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}\n',
                                  '    with micrograph.no_grad():\n        loss = micrograph.mm(x, y)\n'
                                  '    return {"x": x, "y": y, "loss": loss}\n'))
    result = _grade(course, broken, tmp_path, "ex11_vjp")
    assert not result.full_marks
    assert any(p.endswith("graph.gv") for p in result.diagrams)
    assert not any("jacobian_rows" in note for note in result.notes), result.notes


def test_a_number_returned_where_a_value_is_drawn_is_said_so_not_quoted_from_the_drawing_code(
        course: Course, tmp_path: Path) -> None:
    """A float returned for the Value a diagram draws: the note says what it is, not the drawing
    function's own TypeError, as if the student's code had raised it."""
    broken = _edited("ex10_dynamic_graph", ("        return x_value * w\n", "        return (x_value * w).item()\n"),
                     ("    return (x_value - w).exp()\n", "    return (x_value - w).exp().item()\n"))
    result = _grade(course, broken, tmp_path, "ex10_dynamic_graph")
    assert not result.full_marks
    assert result.notes[:1] == ["no diagram: what your code returned to be drawn is of type float, not a Value: "
                                "it has no graph to draw"], result.notes


def test_a_grad_mode_class_given_to_with_uncalled_is_said_so_not_only_pythons_type_error(
        course: Course, tmp_path: Path) -> None:
    """``with micrograph.no_grad:`` in the function the diagram draws: the note names the with
    statement and the missing call, as the tests' feedback does, where Python's text ("'type' object
    does not support the context manager protocol") names neither."""
    broken = _edited("ex09_no_grad", ("    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)\n",
                                      "    if training:\n        return _graph(w, x)\n    with micrograph.no_grad:\n"
                                      "        return _graph(w, x)\n"))
    result = _grade(course, broken, tmp_path, "ex09_no_grad")
    assert result.notes[:1] and result.notes[0].startswith(
        "no diagram: forward wrote `with micrograph.no_grad:`, which gives the with statement micrograph.no_grad "
        "itself, not called"), result.notes


def test_stub_gets_a_reason_not_a_crash(course: Course, tmp_path: Path) -> None:
    result = _grade(course, (REPO / "exercises" / "ex01_graph.py").read_text(), tmp_path)
    assert result.diagrams == []
    assert result.notes == [f"no diagram: {tmp_path / 'ex01_graph.py'} still raises "
                            "NotImplementedError: fill in build_graph"]


def test_syntax_error_gets_a_reason(course: Course, tmp_path: Path) -> None:
    result = _grade(course, "def build_graph(:\n", tmp_path)
    assert result.score == 0
    assert result.notes == ["no diagram: SyntaxError at line 1: invalid syntax"]


def test_what_an_earlier_run_drew_is_gone_before_the_next(course: Course, tmp_path: Path) -> None:
    """A difference fixed since, or the page of an earlier run, must not stay beside this run's
    files; the student's own files in the folder stay."""
    folder = tmp_path / "grades" / "ex01"
    folder.mkdir(parents=True)
    for name in ("difference.svg", "difference.gv", "backward_replayed.html", "backward.html", "notes.txt"):
        (folder / name).write_text("from an earlier run")
    result = _grade(course, (REPO / "solutions" / "ex01_graph.py").read_text(), tmp_path)
    assert result.full_marks
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["notes.txt", *(Path(p).name for p in result.diagrams)])
    assert "from an earlier run" not in (folder / "backward.html").read_text(encoding="utf-8")


def test_a_difference_in_saved_values_alone_is_not_outlined(course: Course, tmp_path: Path) -> None:
    """Clip keeping x on ctx (ctx.x = x) saves nothing with save_for_backward: its graph has the
    statement's nodes, and what differs (saved values) is not drawn, so no difference.svg marks a
    node that looks like the statement's."""
    source = _edited("ex14_custom_function", ("        ctx.save_for_backward(x)\n        ctx.low, ctx.high = low, high",
                                              "        ctx.x = x\n        ctx.low, ctx.high = low, high"),
                     ("        (x,) = ctx.saved_tensors\n        inside", "        x = ctx.x\n        inside"))
    result = _grade(course, source, tmp_path, "ex14_custom_function")
    assert not result.full_marks
    assert not [p for p in result.diagrams if Path(p).stem == "difference"]


def test_a_graph_not_drawn_beside_a_drawn_difference_is_named_not_said_to_be_no_diagram(
        course: Course, tmp_path: Path) -> None:
    """The diagram's call raises (only the first call, which is the diagram's), and a public test's
    graph differs in shape: difference.svg is drawn, so the note on the missing graph names
    graph.svg, never "no diagram" above the line announcing difference.svg."""
    broken = _edited("ex01_graph", ("    b = micrograph.add(w_leaf, 1)\n",
                                    "    if not _CALLS:\n        _CALLS.append(w)\n"
                                    "        raise ValueError('first call')\n    b = micrograph.mul(w_leaf, 1)\n"),
                     ("def build_graph(", "_CALLS = []\n\n\ndef build_graph("))
    result = _grade(course, broken, tmp_path)
    assert [Path(p).name for p in result.diagrams] == ["difference.gv", "difference.svg"]
    assert result.notes[0] == "graph.svg not drawn: your code raised ValueError at line 64 (in build_graph): first call"
    assert not any(note.startswith("no diagram") for note in result.notes), result.notes
