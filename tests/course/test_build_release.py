"""A release of the build track alone hands the student no code of the engine they are writing:
micrograph's core modules ship cut, the track's answers appear in no file, and the release
still grades and draws (micrograph's side of the diagrams shipped with the expected answers)."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from coursekit import REPO, grade, solution, stub

from grader.course.folder import Course
from grader.publish.core_cut import CUT_FROM, RUN_AT_IMPORT, cut
from grader.publish.leaks import solution_only
from grader.publish.release import MIN_LEAK_TEXT, build_release

pytestmark = pytest.mark.xdist_group("release")
STAGES = ("ex17", "ex21")  # each stage's file holds the earlier stages' parts; ex21's checks make fresh copies


@pytest.fixture(scope="module")
def build_release_dir(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    out = tmp_path_factory.mktemp("build-release") / "course"
    course = Course(REPO, cache_dir=cache)
    build_release(course, [course.load(i) for i in STAGES], out)
    return out


def _functions(tree: ast.AST, prefix: str) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.ClassDef):
            found += _functions(node, f"{prefix}.{node.name}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((f"{prefix}.{node.name}", node))
            found += _functions(node, f"{prefix}.{node.name}")
    return found


def _code(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    body = function.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
    return body[1:] if docstring else body


def test_the_core_ships_with_no_function_body(build_release_dir: Path) -> None:
    for module in CUT_FROM:
        tree = ast.parse((build_release_dir / "micrograph" / f"{module}.py").read_text(encoding="utf-8"))
        for name, function in _functions(tree, module):
            code = _code(function)
            if name in RUN_AT_IMPORT:
                continue
            assert len(code) <= 1 and all(isinstance(s, ast.Raise) for s in code), name


def test_no_line_of_the_track_answers_ships(build_release_dir: Path) -> None:
    """Nowhere in the engine or the stubs, unless a module that is not cut (a custom Function's
    ``apply`` refuses a second backward too) holds the same line."""
    shipped = [*(build_release_dir / "micrograph").rglob("*.py"), *(build_release_dir / "exercises").glob("*")]
    texts = [p.read_text(encoding="utf-8") for p in shipped]
    whole_modules = [p.read_text(encoding="utf-8") for p in (REPO / "micrograph").rglob("*.py")
                     if p.parent.name != "micrograph" or p.stem not in CUT_FROM]
    whole = solution("ex22").read_text(encoding="utf-8")  # the last stage's file is the whole engine
    answers = [line for line in solution_only(whole, stub("ex22").read_text(encoding="utf-8"))
               if len(line) >= MIN_LEAK_TEXT]
    assert answers
    leaked = [line for line in answers if any(line in text for text in texts)
              and not any(line in text for text in whole_modules)]
    assert not leaked


def test_the_release_grades_a_stage_and_replays_its_backward(build_release_dir: Path, tmp_path: Path,
                                                             cache: Path) -> None:
    """A solution passes every public test of its stage: the probes of a stage that runs the student's file again
    (a fresh copy) keep micrograph's grad mode only where it can run, which a cut core's cannot."""
    shipped = json.loads((build_release_dir / "grader" / "exercises" / "expected" / "replayed.json").read_text())
    assert sorted(shipped) == list(STAGES) and all(shipped[stage][1] for stage in STAGES)
    folder = tmp_path / "work"
    folder.mkdir()
    for stage in STAGES:
        shutil.copy(solution(stage), folder)
    run = grade(*STAGES, "--submission", str(folder), "--out", str(tmp_path / "grades"), cache=tmp_path / "c",
                cwd=build_release_dir, PYTHONPATH=str(build_release_dir), COLUMNS="250")
    assert run.returncode == 0, run.stdout + run.stderr
    assert all((tmp_path / "grades" / stage / "backward_replayed.html").is_file() for stage in STAGES)


def test_cut_keeps_signatures_docstrings_and_what_runs_at_import() -> None:
    source = ('class Node:\n    def __init_subclass__(cls):\n        cls.seen = 1\n\n'
              '        def inner():\n            return 2\n\n'
              '    def apply(self, g):\n        """Why."""\n        total = g * 2\n        return total\n')
    done = cut(source, "node")
    assert "cls.seen = 1" in done and "return 2" not in done and "total = g * 2" not in done
    assert '"""Why."""' in done and "def apply(self, g):" in done
    namespace: dict[str, object] = {}
    exec(compile(done, "node.py", "exec"), namespace)  # noqa: S102 - the cut module must still import
