"""Every function a student writes has a public test: the reference solution with that one
function left as a stub must fail a public test (else a hard-coded version of it would show
"public: passed" and the student would learn otherwise only from the hidden tests).

Run for the exercises that have a gallery (``gallery/exNN/``), the ones converted to
graph-aware grading.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from exercise_grading import expected_numbers, grade, mentions, solution_path, stub_path
from gallery_case import GALLERY
from grader.course import catalog
from grader.course.folder import in_parallel


def _stubbed_functions(stub: Path) -> list[str]:
    """The top-level functions the stub leaves for the student (they raise NotImplementedError)."""
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
            and "NotImplementedError" in ast.unparse(node.body[-1])]


def _without(solution: Path, name: str) -> str:
    """The solution's source with function ``name``'s body replaced by the stub's raise."""
    source = solution.read_text(encoding="utf-8")
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    lines = source.splitlines(keepends=True)
    first = node.body[0]
    keep = 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else 0
    start = node.body[keep].lineno - 1 if len(node.body) > keep else node.body[-1].end_lineno
    indent = " " * node.body[0].col_offset
    stubbed = f'{indent}raise NotImplementedError("{name}")\n'
    return "".join(lines[:start] + [stubbed] + lines[node.end_lineno:])


CONVERTED = sorted(p.name for p in GALLERY.glob("ex*") if p.is_dir())
FUNCTIONS = [(ex, name) for ex in CONVERTED for name in _stubbed_functions(stub_path(ex))]


@pytest.fixture(scope="module")
def without_one(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[str]]:
    """For each function, the public tests that fail when only it is left unwritten (graded a
    few at a time: each grading waits on its own sandboxed child)."""
    def job(exercise_id: str, name: str) -> Callable[[], list[str]]:
        solution = solution_path(exercise_id)
        submission = tmp_path_factory.mktemp(f"{exercise_id}-{name}") / solution.name
        submission.write_text(_without(solution, name), encoding="utf-8")
        return lambda: [t.name for t in grade(exercise_id, submission).tests
                        if t.public and t.status != "passed"]

    for exercise_id in CONVERTED:
        grade(exercise_id, solution_path(exercise_id))  # the reference's observations, once
    return dict(zip(FUNCTIONS, in_parallel([job(ex, name) for ex, name in FUNCTIONS])))


@pytest.mark.parametrize("exercise_id, name", FUNCTIONS,
                         ids=[f"{ex}-{name}" for ex, name in FUNCTIONS])
def test_each_function_has_a_public_test(exercise_id, name, without_one):
    assert without_one[exercise_id, name], (
        f"{exercise_id}: no public test fails when {name} is not written")


@pytest.mark.parametrize("exercise_id", CONVERTED)
def test_the_untouched_stub_scores_zero(exercise_id):
    result = grade(exercise_id, stub_path(exercise_id))
    assert result.score == 0
    assert all("NotImplementedError" in t.feedback for t in result.tests)


@pytest.mark.parametrize("exercise_id", CONVERTED)
def test_no_feedback_text_holds_an_expected_number(exercise_id):
    """A test's own feedback texts are shown whatever the student did: none of them may spell
    out a number some test of the exercise (hidden ones included) expects."""
    numbers = expected_numbers(exercise_id)
    for test in catalog.load(exercise_id).spec.tests:
        for text in (test.feedback, *test.key_feedback.values()):
            assert not mentions(text, numbers), f"{exercise_id}/{test.name}: {text!r}"
