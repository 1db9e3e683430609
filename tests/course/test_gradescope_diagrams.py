"""The graph each submission built reaches Gradescope students: one HTML test per exercise,
visible like the public tests it comes from, safe to embed, and a results.json under the limit.
Rendered in headless Chromium when it is installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser import MEASURE, chromium, dump_dom, screenshot
from coursekit import REPO, by_name, check_schema, run_standin, solution, stub

from grader.course.folder import Course
from grader.judge.grading import ExerciseResult, TestResult
from grader.publish import gradescope_diagrams as diagrams
from grader.publish import gradescope_results as results_json
from grader.publish.gradescope import build_bundle

needs_browser = pytest.mark.skipif(chromium() is None, reason="no chromium (apt-get install "
                                   "chromium) to render the HTML in")


def _diagram_tests(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: t for n, t in by_name(data).items() if n.endswith(": the graph your code built")}


def _measured(output: str, folder: Path) -> tuple[list[str], Path]:
    """Load the HTML fragment in Chromium: (what each picture measured, the page)."""
    page = folder / "fragment.html"
    page.write_text(f'<!doctype html><meta charset="utf-8"><body style="margin:20px;'
                    f'max-width:900px">{output}{MEASURE}</body>', encoding="utf-8")
    measured = re.search(r'<pre id="measured">(.*?)</pre>', dump_dom(page))
    assert measured is not None, "the page did not load"
    return measured.group(1).split(), page


@pytest.fixture(scope="module")
def solved_ex03(bundle: Path) -> Iterator[dict[str, Any]]:
    """One Gradescope run of ex03's solution beside ex01's untouched stub (no graph, a sentence
    says why), for the tests of the diagrams it shows (their xdist group: one worker runs it)."""
    def setup(submission: Path, root: Path) -> None:
        shutil.copy(solution("ex03"), submission)
        shutil.copy(stub("ex01"), submission)

    data = run_standin(bundle, setup)
    yield data
    shutil.rmtree(data["_root"], ignore_errors=True)


@pytest.mark.xdist_group("gradescope-solved-ex03")
def test_each_exercise_shows_its_diagram_as_visible_html(solved_ex03: dict[str, Any]) -> None:
    data = solved_ex03
    drawn = _diagram_tests(data)
    assert set(drawn) == {"ex01: the graph your code built", "ex03: the graph your code built"}
    for test in drawn.values():
        assert test["output_format"] == "html" and test["visibility"] == "visible"
        assert test["score"] == test["max_score"] == 0
    assert drawn["ex03: the graph your code built"]["status"] == "passed"
    assert drawn["ex01: the graph your code built"]["status"] == "failed"  # no graph is no success
    ex03 = drawn["ex03: the graph your code built"]["output"]
    assert ex03.count("<svg") == 1 and "MulBackward0" in ex03
    assert not re.search(r"<script|on\w+=|href|<use|<foreignObject", ex03, re.I)
    ex01 = drawn["ex01: the graph your code built"]["output"]
    assert "<svg" not in ex01 and "NotImplementedError" in ex01
    assert (data["_root"] / "results" / "results.json").stat().st_size < diagrams.RESULTS_LIMIT


@needs_browser
@pytest.mark.xdist_group("gradescope-solved-ex03")
def test_the_diagram_renders_in_a_browser(solved_ex03: dict[str, Any], tmp_path: Path) -> None:
    output = _diagram_tests(solved_ex03)["ex03: the graph your code built"]["output"]
    measured, page = _measured(output, tmp_path)
    png = screenshot(page, tmp_path / "fragment.png")
    assert len(measured) == 1
    kind, size, texts = measured[0].split(":")
    width, height = map(int, size.split("x"))
    assert kind == "svg" and width > 300 and height > 200 and int(texts) >= 10
    assert png.stat().st_size > 10_000  # a picture, not a blank page


@needs_browser
def test_a_png_bundle_for_a_gradescope_that_strips_svg(tmp_path: Path) -> None:
    course = Course(REPO)
    bundle = tmp_path / "autograder.zip"
    build_bundle(course, [course.load("ex03")], bundle, diagram_format="png")
    root = tmp_path / "root"
    for name in ("source", "submission", "results"):
        (root / name).mkdir(parents=True)
    os.chmod(tmp_path, 0o755)
    os.chmod(root, 0o755)
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    shutil.copy(solution("ex03"), root / "submission")
    subprocess.run(["bash", str(root / "source" / "run_autograder")], check=True, timeout=180,
                   env={**os.environ, "AUTOGRADER_ROOT": str(root), "GRADE_PYTHON": sys.executable},
                   capture_output=True)
    data = json.loads((root / "results" / "results.json").read_text())
    check_schema(data)
    output = _diagram_tests(data)["ex03: the graph your code built"]["output"]
    assert "<svg" not in output and 'src="data:image/png;base64,' in output
    measured, _ = _measured(output, tmp_path)
    kind, size, loaded = measured[0].split(":")
    assert kind == "IMG" and loaded == "1" and int(size.split("x")[0]) > 300


def _result(exercise_id: str, diagram: Path | None) -> results_json.Graded:
    tests = [TestResult("a test", True, 1, 1, "passed")]
    result = ExerciseResult(exercise_id, "t", tests, diagrams=[str(diagram)] if diagram else [])
    return results_json.Graded(result, visible_stdout="x" * 9_000, hidden_stdout="y" * 9_000,
                               drawn=result)


def test_a_missing_diagram_is_no_green_row(tmp_path: Path) -> None:
    why = "no diagram: SyntaxError at line 3: invalid syntax"
    missing = ExerciseResult("ex03", "t", [TestResult("a test", True, 0, 1, "error")],
                             notes=[why], diagram_problem=why)
    test = diagrams.entry(missing, "3.2")
    assert test["status"] == "failed" and "SyntaxError at line 3" in test["output"]
    drawn = tmp_path / "graph.svg"
    drawn.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>x</text></svg>')
    whole = ExerciseResult("ex03", "t", [TestResult("a test", True, 1, 1, "passed")],
                           diagrams=[str(drawn)])
    assert diagrams.entry(whole, "3.2")["status"] == "passed"


def test_the_summary_speaks_of_the_graph_only_when_one_was_drawn(tmp_path: Path) -> None:
    drawn = tmp_path / "graph.svg"
    drawn.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>x</text></svg>')
    sentence = "*the graph your code built* draws"
    outputs = [results_json.results([_result("ex03", diagram)], execution_time=1.0)["output"]
               for diagram in (None, drawn)]
    assert sentence not in outputs[0] and sentence in outputs[1]


def test_results_stay_under_gradescopes_limit_and_say_so(tmp_path: Path) -> None:
    big = tmp_path / "graph.svg"
    boxes = "".join(f'<text x="{i}" y="{i}">node {i}</text>' for i in range(9_000))
    big.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">{boxes}</svg>')
    medium = tmp_path / "medium.svg"
    boxes = "".join(f'<text x="{i}" y="{i}">node {i}</text>' for i in range(3_500))
    medium.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">{boxes}</svg>')
    graded = [_result(f"ex{i:02d}", medium) for i in range(1, 16)] + [_result("ex16", big)]
    data = results_json.results(graded, execution_time=1.0)
    size = len(json.dumps(data).encode())  # as gradescope_results.write writes it
    assert size < diagrams.RESULTS_LIMIT
    drawn = _diagram_tests(data)
    too_big = drawn["ex16: the graph your code built"]["output"]
    assert "<svg" not in too_big and "too large to show here" in too_big
    kept = [t for t in drawn.values() if "<svg" in t["output"]]
    left_out = [t for t in drawn.values() if "left out to keep the results under" in t["output"]]
    assert kept and left_out and len(kept) + len(left_out) == 15
    assert "size limit" in data["output"] and "left out the diagram of" in data["output"]
    check_schema(data)


def test_a_small_results_file_is_left_whole() -> None:
    graded = [_result("ex01", None)]
    data = results_json.results(graded, execution_time=1.0)
    assert diagrams.fit(data) == [] and "size limit" not in data["output"]
