"""Fixtures for the course autograder's tests (helpers live in coursekit.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from coursekit import BUNDLED, REPO, check_schema

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
    """``run(setup, **env)``: a fresh stand-in root (world-searchable, as /autograder is, so
    that an unprivileged child can reach the engine), ``setup(submission_folder, root)`` fills
    the submission, run_autograder runs; returns the parsed results.json."""
    roots = []

    def run(setup: Callable[[Path, Path], None], **env: str) -> dict[str, Any]:
        root = Path(tempfile.mkdtemp(prefix="autograder-"))
        roots.append(root)
        os.chmod(root, 0o755)
        for name in ("source", "submission", "results"):
            (root / name).mkdir()
        with zipfile.ZipFile(bundle) as archive:
            archive.extractall(root / "source")
        setup(root / "submission", root)
        proc = subprocess.run(["bash", str(root / "source" / "run_autograder")],
                              env={**os.environ, "AUTOGRADER_ROOT": str(root),
                                   "GRADE_PYTHON": sys.executable, **env},
                              capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0
        data = json.loads((root / "results" / "results.json").read_text())
        check_schema(data)
        data["_stdout"] = proc.stdout + proc.stderr
        data["_root"] = root
        return data

    yield run
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
