"""Fixtures for the course autograder's tests (helpers live in coursekit.py)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from coursekit import BUNDLED, REPO, run_standin

from grader.course.folder import Course
from grader.publish.gradescope import build_bundle


@pytest.fixture(scope="session")
def cache(answers: Path) -> Path:
    """The run's cache of expected answers (tests/conftest.py): each solution runs once."""
    return answers


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    course = Course(REPO)
    build_bundle(course, [course.load(i) for i in BUNDLED], out)
    return out


@pytest.fixture
def standin(bundle: Path) -> Iterator[Callable[..., dict[str, Any]]]:
    """``run(setup, **env)``: ``coursekit.run_standin`` of the test bundle, its roots removed
    after the test."""
    roots = []

    def run(setup: Callable[[Path, Path], None], **env: str) -> dict[str, Any]:
        data = run_standin(bundle, setup, **env)
        roots.append(data["_root"])
        return data

    yield run
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
