"""An error raised in a build-track engine names whose part of the engine raised it (this
stage's, or an earlier one's this stage builds on) and the test's step that ran into it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from grader.judge import explain, stages
from grader.sandbox.child import wire
from grader.sandbox.child.located import keep_source, probe_step, qualified
from grader.spec.build import KEPT
from grader.spec.build_checks import CHECKS, FAULT_IN, STAGE_IDS
from grader.spec.build_parts import PARTS
from grader.spec.limits import Limits
from grader.spec.probe import MAX_TEXT

TEST_FILE = "<tests: ex17>"


def _error(function: str, caller: str | None, step: str | None) -> dict[str, object]:
    return {"type": "KeyError", "message": "'other'", "function": function, "caller": caller,
            "line": 59, "step": step}


def test_an_error_names_the_stage_whose_part_raised_it_and_the_step() -> None:
    text = explain.test_error(_error("Node.unpack", "MulBackward0.apply", "y.backward()"), "ex17.py", Limits(),
                      exercise="ex17")
    assert text == ("your code raised KeyError at line 59 (in Node.unpack, called from MulBackward0.apply: "
                    "this stage's part of the engine), while the test ran `y.backward()`: 'other'")
    earlier = explain.test_error(_error("Value.__add__", None, "a = x + w"), "ex19.py", Limits(), exercise="ex19")
    assert "(in Value.__add__: ex16's part of the engine, which this stage builds on)" in earlier


def test_a_step_with_a_number_in_it_is_not_shown() -> None:
    """Such a line may hold a hidden test's input."""
    text = explain.test_error(_error("backward", None, "w = sub.Value(2.5, requires_grad=True)"), "ex17.py", Limits(),
                      exercise="ex17")
    assert "while the test ran" not in text and "2.5" not in text


def test_a_step_of_the_grader_s_own_bookkeeping_is_not_shown() -> None:
    """A line that calls a helper of the grader's by its bare name, or the first line of a longer
    statement, says nothing of what the student's code ran."""
    for step in ('reset_left["dropped"] = [fact(grad_quiet(w), "w.grad after w.grad = None"),',
                 "kept(w * x + w).backward()", "seen = [fact(grad_quiet(v), label) for v in leaves]"):
        text = explain.test_error(_error("backward", None, step), "ex19.py", Limits(), exercise="ex19")
        assert "while the test ran" not in text, step
    shown = explain.test_error(_error("backward", None, "(w * x + w).backward()"), "ex19.py", Limits(), exercise="ex19")
    assert "while the test ran `(w * x + w).backward()`" in shown


def test_outside_the_build_track_the_sentence_is_as_before() -> None:
    text = explain.test_error(_error("step", None, "y.backward()"), "ex09.py", Limits(), exercise="ex09")
    assert text == "your code raised KeyError at line 59 (in step): 'other'"


def test_a_method_python_found_missing_is_told_alone() -> None:
    """``2 + w`` without ``__radd__``: Python refused the operator, so the sentence names the
    method; it was not raised while the test used a result, and is not said to be."""
    from grader.exercises.ex16 import NO_REFLECTED
    error = {"type": "MissingMethod", "message": NO_REFLECTED["+"], "function": None, "caller": None, "line": None,
             "step": None}
    assert explain.test_error(error, "ex16.py", Limits(), exercise="ex16") == NO_REFLECTED["+"]
    error["type"] = "TypeError"  # a probe's own error about a result is still told as one
    assert explain.test_error(error, "ex16.py", Limits(), exercise="ex16").endswith(
        "(raised while the test used what your code returned)")


def test_the_step_is_the_test_module_line_that_called_into_the_submission(tmp_path: Path) -> None:
    submission = tmp_path / "ex17_build_backward.py"
    submission.write_text("def backward(v):\n    raise KeyError('other')\n")
    keep_source(TEST_FILE, "def probe(sub):\n    y = 1\n    sub['backward'](y)\n")
    sub: dict[str, object] = {}
    exec(compile(submission.read_text(), str(submission), "exec"), sub)  # noqa: S102 - a submission's file
    tests: dict[str, object] = {}
    exec(compile("def probe(sub):\n    y = 1\n    sub['backward'](y)\n", TEST_FILE, "exec"), tests)  # noqa: S102
    try:
        tests["probe"](sub)  # type: ignore[operator]
    except KeyError as exc:
        assert probe_step(exc, str(submission)) == "sub['backward'](y)"
        assert probe_step(exc, "another file") is None


def test_a_step_longer_than_the_wire_takes_is_clipped_not_refused(tmp_path: Path) -> None:
    """A release's public tests are unparsed into one line per statement: an honest error
    raised under a long one must still be a record the wire accepts."""
    submission = tmp_path / "ex01_graph.py"
    submission.write_text("def paths(y, leaf):\n    raise ValueError('oops')\n")
    long_line = "return {leaf: sub['paths'](1, leaf) for leaf in " + repr(tuple(range(80))) + "}"
    source = f"def probe(sub):\n    {long_line}\n"
    keep_source(TEST_FILE, source)
    sub: dict[str, object] = {}
    exec(compile(submission.read_text(), str(submission), "exec"), sub)  # noqa: S102 - a submission's file
    tests: dict[str, object] = {}
    exec(compile(source, TEST_FILE, "exec"), tests)  # noqa: S102
    try:
        tests["probe"](sub)  # type: ignore[operator]
    except ValueError as exc:
        step = probe_step(exc, str(submission))
    assert step is not None and len(step) == wire.MAX_NAME and long_line.startswith(step[:-1])
    record: wire.ProbeRecord = {"kind": "test", "name": "paths", "obs": None,
                                "error": {"type": "ValueError", "message": "oops", "function": "paths",
                                          "caller": None, "line": 2, "step": step, "fresh": False}}
    assert wire.decode(wire.encode(record)) == record


def _solution(exercise: str) -> tuple[ModuleType, str]:
    """A build-track stage's reference engine, loaded, and its file's path."""
    path = next((Path(__file__).resolve().parents[2] / "solutions").glob(f"{exercise}_*.py"))
    spec = importlib.util.spec_from_file_location(f"solution_{exercise}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, str(path)


def test_each_earlier_stage_check_runs_the_functions_its_table_names() -> None:
    """``stages.CHECK_RUNS``, which decides the functions a failing earlier check may blame,
    is what each check runs in the reference engine of every later stage, watched."""
    seen: dict[str, set[str]] = {stage: set() for stage, _check in CHECKS}
    for exercise in STAGE_IDS[1:]:
        module, path = _solution(exercise)
        for stage, check in CHECKS[:STAGE_IDS.index(exercise)]:
            ran: set[str] = set()
            sys.setprofile(lambda frame, event, arg: ran.add(qualified(frame))
                           if event == "call" and frame.f_code.co_filename == path else None)
            try:
                assert check(module) is None
            finally:
                sys.setprofile(None)
            seen[stage] |= ran & set(PARTS[exercise])
    assert seen == {stage: set(names) for stage, names in stages.CHECK_RUNS.items()}


def test_a_failing_check_blames_no_later_function_it_does_not_run() -> None:
    """ex16's check only records operations: ex17's backward, written since, cannot make ``w * x``
    save a number, so the sentence names no function of ex17's as a place of the fault."""
    problem = "w * x does not save w and x themselves, the Values, as \"self\" and \"other\""
    said = stages.earlier_stage("ex16", "ex17.py", problem, "ex17")
    assert "fault may be" not in said and "dependencies" not in said
    assert "Node.release" in stages.earlier_stage("ex17", "ex20.py", "backward through w * w + w leaves w.grad None",
                                                  "ex20")


def test_a_finding_that_names_its_function_reaches_the_parent_whole() -> None:
    """A check's finding travels as an EarlierStage message (``exNN: kept: finding``), cut at
    MAX_TEXT: a finding cut short is no key of FAULT_IN, and blames later functions it never ran."""
    longest = len(f"{STAGE_IDS[-1]}: {KEPT}")
    assert [finding for finding in FAULT_IN if longest + len(finding) > MAX_TEXT] == []
