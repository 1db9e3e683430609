"""The guides' example outputs hold: each documented block's commands run again on a fresh
clone of this checkout (in a copy of its course or a student release built from it), with the
clone's code, and print what the guide shows, compared as a shape (times, uids, versions and the
isolation mode masked). When a change moves an output on purpose, ``python
scripts/doc_examples.py`` rewrites the guides from real runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from grader.course.catalog import exercise_ids
from grader.course.folder import Course
from grader.publish.readme import student_readme

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("doc-examples")  # one worker builds the release once


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("doc_examples", ROOT / "scripts" / "doc_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


examples = _script()
BLOCKS = [block for doc in examples.DOCS for block in examples.blocks(doc)]
LISTED = [listed for doc in examples.DOCS for listed in examples.listed(doc)]
REGENERATE = "the guide is stale: run python scripts/doc_examples.py and read the diff"


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> Any:
    return examples.Runner(tmp_path_factory.mktemp("doc-examples"), cache=answers)


def test_both_guides_show_real_outputs() -> None:
    docs = {block.doc.name for block in BLOCKS}
    assert docs == {"student.md", "instructor.md"}
    assert all(block.steps and block.steps[0].output for block in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name[:90] for b in BLOCKS])
def test_a_documented_output_holds(block: Any, runner: Any) -> None:
    outputs = runner.run(block)
    shown = [examples.mask(step.output) for step in block.steps]
    assert [examples.mask(o) for o in outputs] == shown, REGENERATE


def test_both_guides_list_their_commands() -> None:
    commands = {doc.name: [c.command for c in LISTED if c.doc == doc] for doc in examples.DOCS}
    assert "grade ex03" in commands["student.md"] and "grade list" in commands["student.md"]
    assert any("grader.check" in c for c in commands["student.md"])
    assert {"grade check", "grade --version", "grade gradescope -o autograder.zip"} <= set(commands["instructor.md"])
    assert any(c.startswith("grade batch") for c in commands["instructor.md"])


@pytest.mark.parametrize("listed", LISTED, ids=[c.name[:90] for c in LISTED])
def test_a_listed_command_runs_as_documented(listed: Any, runner: Any) -> None:
    done = runner.run_listed(listed)
    said = done.stdout + done.stderr
    assert done.returncode in examples.DOCUMENTED_EXITS, said
    assert said.strip() and "Traceback" not in said, said


def test_the_student_guide_is_the_release_readme() -> None:
    text = (ROOT / "docs" / "student.md").read_text(encoding="utf-8")
    readme = student_readme([Course(ROOT).load(i) for i in exercise_ids()], notebooks=True)
    assert examples.with_release_readme(text, readme) == text, REGENERATE
