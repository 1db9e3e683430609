"""An error with the engine's words is the engine's only if the engine raised it with them, in
every isolation mode this machine gives (``error_attacks.py`` holds the submissions).

The right answers make the engine raise; the honest wrong ones raise the same message by hand
and lose the points that say "the engine raised it"; each forgery makes the engine raise for
another mistake and rewrites that error's message afterwards. The traceback of a forgery ends
in the engine, so only the message made again at the engine's raise site
(``grader.spec.raise_site``) tells it from the engine's: it scores no more than the honest
wrong answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from batches import MODES, REPO, batch_files, graded
from error_attacks import RAISING, REWRITES, Raising, students
from modes import one_class_per_mode, skip_unless



@pytest.fixture(scope="module", params=one_class_per_mode("forged-errors-class", MODES))
def rows(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> dict[str, dict[str, Any]]:
    """Every student of ``error_attacks`` graded as one class, in one mode."""
    mode = request.param
    skip_unless(mode)
    work: Path = tmp_path_factory.mktemp(f"errors-{mode.replace(' ', '-').replace('+', '-')}")
    proc = batch_files(REPO, students(), tuple(r.exercise for r in RAISING), work,
                       GRADE_ISOLATION=mode, GRADE_CACHE_DIR=str(work / "cache"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return graded(work)


@pytest.mark.parametrize("raising", RAISING, ids=lambda r: r.exercise)
def test_the_error_made_by_hand_loses_points(rows: dict[str, dict[str, Any]], raising: Raising) -> None:
    right, wrong = rows["honest_right"], rows["honest_wrong"]
    assert float(wrong[raising.exercise]) < float(right[raising.exercise]), (wrong, right)


@pytest.mark.parametrize("rewrite", REWRITES)
@pytest.mark.parametrize("raising", RAISING, ids=lambda r: r.exercise)
def test_a_rewritten_engine_error_earns_no_more_than_the_error_made_by_hand(
        rows: dict[str, dict[str, Any]], raising: Raising, rewrite: str) -> None:
    forged, wrong = rows[rewrite][raising.exercise], rows["honest_wrong"][raising.exercise]
    assert float(forged) <= float(wrong), (rewrite, rows[rewrite])
