"""Every function and method a student writes has a public test: the reference solution with
that one function (or one method of a class the student writes) left as a stub must fail a
public test (else a hard-coded version of it would show "public: passed" and the student would
learn otherwise only from the hidden tests).

Run for the exercises that have a gallery (``gallery/exNN/``), the ones converted to
graph-aware grading.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from exercise_grading import Grading, mentions, observe, rounds, solution_path, stub_path
from gallery_case import GALLERY
from grader.course import catalog
from grader.i18n import _
from grader.judge.grading import ExerciseResult
from micrograph.i18n import using

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _functions(tree: ast.Module) -> Iterator[tuple[str, Function]]:
    """Each public top-level function as ``name`` and each public method of a top-level class
    as ``Class.name`` (names that start with ``_`` are the file's own helpers)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{item.name}", item


def _stubbed_functions(stub: Path) -> list[str]:
    """The functions and methods the stub leaves for the student (they raise
    NotImplementedError)."""
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    return [name for name, node in _functions(tree) if not name.split(".")[-1].startswith("_")
            and "NotImplementedError" in ast.unparse(node.body[-1])]


def _without(solution: Path, name: str) -> str:
    """The solution's source with function or method ``name``'s body replaced by the stub's
    raise."""
    source = solution.read_text(encoding="utf-8")
    node = dict(_functions(ast.parse(source)))[name]
    lines = source.splitlines(keepends=True)
    first = node.body[0]
    keep = 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else 0
    start = node.body[keep].lineno - 1 if len(node.body) > keep else node.body[-1].end_lineno
    indent = " " * node.body[0].col_offset
    stubbed = f'{indent}raise NotImplementedError("{name}")\n'
    return "".join(lines[:start] + [stubbed] + lines[node.end_lineno:])


def test_methods_of_the_classes_a_student_writes_are_found() -> None:
    """ex14's student writes two classes: each of their methods is checked, not only the
    file's top-level functions."""
    assert _stubbed_functions(stub_path("ex14")) == [
        "Softplus.forward", "Softplus.backward", "Clip.forward", "Clip.backward"]


CONVERTED = sorted(p.name for p in GALLERY.glob("ex*") if p.is_dir())
FUNCTIONS = [(ex, name) for ex in CONVERTED for name in _stubbed_functions(stub_path(ex))]


ROUNDS = rounds(FUNCTIONS)  # round k: the k-th function of every exercise, graded in one child


@pytest.fixture(scope="session")
def failing(grading: Grading, tmp_path_factory: pytest.TempPathFactory
            ) -> Callable[[str, str], list[str]]:
    """``failing(exercise_id, name)``: the public tests that fail when only that function is
    left unwritten (its round graded when one of its functions is first asked for)."""
    done: dict[tuple[str, str], list[str]] = {}

    def public_failures(exercise_id: str, name: str) -> list[str]:
        if (exercise_id, name) not in done:
            members = [(ex, n) for ex, n in FUNCTIONS if ROUNDS[ex, n] == ROUNDS[exercise_id, name]]
            paths = []
            for ex, n in members:
                solution = solution_path(ex)
                paths.append(tmp_path_factory.mktemp(f"{ex}-{n}") / solution.name)
                paths[-1].write_text(_without(solution, n), encoding="utf-8")
            reports = observe([(ex, path) for (ex, _), path in zip(members, paths)])
            for (ex, n), path, report in zip(members, paths, reports):
                done[ex, n] = [t.name for t in grading.judged(ex, path, report).tests
                               if t.public and t.status != "passed"]
        return done[exercise_id, name]
    return public_failures


@pytest.mark.parametrize("exercise_id, name", [
    pytest.param(ex, name, id=f"{ex}-{name}",
                 marks=pytest.mark.xdist_group(f"coverage-round-{ROUNDS[ex, name]}"))
    for ex, name in FUNCTIONS])
def test_each_function_has_a_public_test(exercise_id, name, failing):
    assert failing(exercise_id, name), (
        f"{exercise_id}: no public test fails when {name} is not written")


@pytest.fixture(scope="session")
def stubs_graded(grading: Grading) -> dict[str, ExerciseResult]:
    """Every converted exercise's untouched stub, graded in one child."""
    reports = observe([(ex, stub_path(ex)) for ex in CONVERTED])
    return {ex: grading.judged(ex, stub_path(ex), report) for ex, report in zip(CONVERTED, reports)}


@pytest.mark.xdist_group("untouched-stubs")
@pytest.mark.parametrize("exercise_id", CONVERTED)
def test_the_untouched_stub_scores_zero(exercise_id, stubs_graded):
    result = stubs_graded[exercise_id]
    assert result.score == 0
    assert all("NotImplementedError" in t.feedback for t in result.tests)


@pytest.mark.parametrize("exercise_id", CONVERTED)
def test_no_feedback_text_holds_an_expected_number(exercise_id, grading: Grading):
    """A test's own feedback texts are shown whatever the student did: none of them may spell
    out a number some test of the exercise (hidden ones included) expects, in English or in
    the Chinese the student may read them in."""
    numbers = grading.expected_numbers(exercise_id)
    for test in catalog.load(exercise_id).spec.tests:
        for text in (test.feedback, *test.key_feedback.values()):
            with using("zh"):
                chinese = _(text)
            assert chinese != text, f"{exercise_id}/{test.name}: no Chinese for {text!r}"
            for shown in (text, chinese):
                assert not mentions(shown, numbers), f"{exercise_id}/{test.name}: {shown!r}"
