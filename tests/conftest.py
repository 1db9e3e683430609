"""Every test starts in English whatever the machine's locale: the golden files and messages are English.

A test about Chinese output asks for it (``micrograph.i18n.using("zh")`` or ``MICROGRAPH_LANG``).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import find_submission
from grader.judge.reference import from_solution
from micrograph import i18n


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.ENV_VAR, "en")
    i18n.set_language(None)


CHECKOUT = Path(__file__).resolve().parents[1]
WRITTEN_BY_GRADE = ("grades",)  # the folders `grade` writes into in the folder it runs from


def _written(checkout: Path) -> set[str]:
    return {str(p.relative_to(checkout)) for name in WRITTEN_BY_GRADE
            for p in (checkout / name).rglob("*")}


@pytest.fixture(autouse=True)
def _nothing_written_into_the_checkout(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests write only under temporary folders: a test that leaves diagrams in the checkout's
    grades/ (a grade run from the repository without --out) fails, by name."""
    before = _written(CHECKOUT)
    yield
    added = _written(CHECKOUT) - before
    assert not added, f"{request.node.nodeid} wrote into the checkout: {sorted(added)[:5]}"


SOLUTIONS = CHECKOUT / "solutions"


@pytest.fixture(scope="session")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One grader cache of the reference solutions' answers (``GRADE_CACHE_DIR``) for the whole
    run, shared by pytest-xdist's workers and filled once, before a test reads it: each solution
    runs once a run, not once a test or a worker.  Tests and the ``grade`` commands they start
    would each run the solutions still missing, the workers side by side, the same ones at once;
    here each solution is run by the one worker that takes its lock (the grader writes its
    entries atomically, and finds them by the hashes of everything they depend on).
    Tests about the cache, a student's machine or a hostile class keep a cache of their own."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker's folder is inside the run's
    folder = run / "answers"
    locks = run / "answers-locks"
    locks.mkdir(exist_ok=True)
    waiting = [exercise_id for exercise_id in catalog.exercise_ids()
               if not _answer_once(exercise_id, folder, locks / exercise_id, wait=False)]
    for exercise_id in waiting:  # taken by the other worker: its answers are there when its lock is free
        _answer_once(exercise_id, folder, locks / exercise_id, wait=True)
    return folder


def _answer_once(exercise_id: str, cache: Path, lock: Path, wait: bool) -> bool:
    """Cache the exercise's answers under its lock (False when another worker holds it and
    ``wait`` is not asked): the one holding it runs the solution, the next finds it cached.
    A solution that is missing or fails is left to the tests of its exercise to report (the
    grader caches no failed run)."""
    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        exercise = catalog.load(exercise_id)
        solution = find_submission(SOLUTIONS, exercise.spec)
        if solution is not None:
            from_solution(exercise, solution, cache)
        return True
