"""Every function and method a student writes has a public test: the reference solution with
that one function (or one method of a class the student writes) left as a stub must fail a
public test (else a hard-coded version of it would show "public: passed" and the student would
learn otherwise only from the hidden tests).

Run for the exercises that have a gallery (``gallery/exNN/``), the ones converted to
graph-aware grading.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from exercise_grading import Grading, mentions, solution_path, stub_path
from gallery_case import GALLERY
from grader.course import catalog
from grader.i18n import _
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


@pytest.mark.parametrize("exercise_id, name", [
    pytest.param(ex, name, id=f"{ex}-{name}") for ex, name in FUNCTIONS])
def test_each_function_has_a_public_test(exercise_id, name, grading: Grading, tmp_path: Path):
    solution = solution_path(exercise_id)
    submission = tmp_path / solution.name
    submission.write_text(_without(solution, name), encoding="utf-8")
    failing = [t.name for t in grading.grade(exercise_id, submission).tests
               if t.public and t.status != "passed"]
    assert failing, f"{exercise_id}: no public test fails when {name} is not written"


@pytest.mark.parametrize("exercise_id", CONVERTED)
def test_the_untouched_stub_scores_zero(exercise_id, grading: Grading):
    result = grading.grade(exercise_id, stub_path(exercise_id))
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
