"""Every test starts in English whatever the machine's locale: the golden files and messages are English.

A test about Chinese output asks for it (``micrograph.i18n.using("zh")`` or ``MICROGRAPH_LANG``).
"""

from __future__ import annotations

import fcntl
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from grader.course import catalog
from grader.course.catalog import find_submission
from grader.judge.reference import from_solutions
from micrograph import i18n


def pytest_configure(config: pytest.Config) -> None:
    """Compiled modules are kept for the whole run, also on a machine that asks Python not to write
    bytecode (``PYTHONDONTWRITEBYTECODE``): under a temporary folder of this run
    (``PYTHONPYCACHEPREFIX``), read by every worker and every ``grade`` process the tests start,
    so that a few hundred processes do not each compile the grader again.  The sandbox's children
    ignore both variables (``python -I``)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None and os.environ.get("PYTHONDONTWRITEBYTECODE"):
        prefix = tempfile.mkdtemp(prefix="micrograph-test-pycache-")
        config.add_cleanup(lambda: shutil.rmtree(prefix, ignore_errors=True))
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = prefix
        sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (the modules, every test item and its parameters) lives as long as the
    run: it is moved out of the collector's reach (``gc.freeze``), so that each full collection
    a test triggers walks only what tests made.  The engine's graphs hold cycles and the probes
    run in this process call ``gc.collect()`` (freed-id probes, weakly kept nodes): walking
    collection's hundreds of thousands of objects each time was a third of those tests' CPU."""
    gc.collect()
    gc.freeze()


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
    entries atomically, and finds them by the hashes of everything they depend on).  A worker
    takes its share of the locks and runs those solutions in one child (``from_solutions``),
    the other worker the next share, side by side; a lock another worker holds is waited for.
    Tests about the cache, a student's machine or a hostile class keep a cache of their own."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker's folder is inside the run's
    folder = run / "answers"
    locks = run / "answers-locks"
    locks.mkdir(exist_ok=True)
    remaining = catalog.exercise_ids()
    share = -(-len(remaining) // int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    while remaining:
        with ExitStack() as held:
            taken = _take_locks(held, remaining, locks, share)
            _answer(taken, folder)
        remaining = [exercise_id for exercise_id in remaining if exercise_id not in taken]
    return folder


def _take_locks(held: ExitStack, exercise_ids: list[str], locks: Path, share: int) -> list[str]:
    """Up to ``share`` of the exercises whose locks are free, locked (held until ``held``
    closes); when another worker holds them all, the first, once that worker frees it."""
    taken = []
    for exercise_id in exercise_ids:
        if len(taken) == share:
            break
        handle = held.enter_context(open(locks / exercise_id, "a"))
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue
        taken.append(exercise_id)
    if not taken:
        handle = held.enter_context(open(locks / exercise_ids[0], "a"))
        fcntl.flock(handle, fcntl.LOCK_EX)
        taken.append(exercise_ids[0])
    return taken


def _answer(exercise_ids: list[str], cache: Path) -> None:
    """Cache the answers of the exercises (those cached already are read, not run again).  A
    solution that is missing or fails is left to the tests of its exercise to report (the
    grader caches no failed run)."""
    exercises = [catalog.load(exercise_id) for exercise_id in exercise_ids]
    jobs = [(exercise, find_submission(SOLUTIONS, exercise.spec)) for exercise in exercises]
    from_solutions([(exercise, solution) for exercise, solution in jobs if solution is not None], cache)
