"""Every test starts in English whatever the machine's locale: the golden files and messages are English.

A test about Chinese output asks for it (``micrograph.i18n.using("zh")`` or ``MICROGRAPH_LANG``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One grader cache of the reference solutions' answers (``GRADE_CACHE_DIR``) for the whole
    run, shared by pytest-xdist's workers: each solution runs once a run, not once a test or a
    worker.  The grader writes its entries atomically, so workers can fill it side by side.
    Tests about the cache, a student's machine or a hostile class keep a cache of their own."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # each worker's folder is inside the run's
    folder = run / "answers"
    folder.mkdir(exist_ok=True)
    return folder
