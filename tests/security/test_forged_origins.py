"""Where an error or a Value came from cannot be passed off, in every isolation mode this
machine gives (``origin_attacks.py`` holds the submissions).

The right answers make the engine raise, and compute with the engine's operations; the honest
wrong ones raise the same message by hand, or write ``Value(<formula>)``, and lose the points
that say "the engine raised it" or "the engine computed it". Each forgery makes the engine raise
for another mistake and rewrites that error's message afterwards (its traceback ends in the
engine, so only the message made again at the engine's raise site, ``grader.spec.raise_site``,
tells it from the engine's), or passes its formula through one operation (``* 1``: only the
operations' inputs, followed back to the Values given, tell it from a computation), or raises the
engine's warning by hand (only the message made again at the engine's ``warnings.warn`` tells
it from the engine's). Each scores no more than the honest wrong answer.

Every mode grades the honest answers; the forgeries act on Python's objects alone, which meet the
same code in every mode (``modes.strongest_here``): they are graded in the strongest mode this
machine gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from batches import MODES, graded_class
from modes import one_class_per_mode, skip_unless, skip_unless_strongest, strongest_here
from origin_attacks import COMPUTING, EXERCISES, RAISING, REWRITES, WARNINGS, Computing, Raising, students


@pytest.fixture(scope="module", params=one_class_per_mode("forged-origins-class", MODES))
def mode(request: pytest.FixtureRequest) -> str:
    skip_unless(request.param)
    return request.param


@pytest.fixture(scope="module")
def rows(mode: str, tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, dict[str, Any]]:
    """The students of ``origin_attacks`` graded as one class in ``mode``: every one in the
    strongest mode here, the honest ones in the others."""
    entries = students()
    if not strongest_here(mode):
        entries = {name: files for name, files in entries.items() if name.startswith("honest_")}
    return graded_class(mode, tmp_path_factory, "origins", entries, answers, EXERCISES)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_honest_wrong_answers_lose_points(rows: dict[str, dict[str, Any]], exercise: str) -> None:
    right = float(rows["honest_right"][exercise])
    assert right > 0
    if exercise in {r.exercise for r in RAISING}:
        assert float(rows["honest_wrong"][exercise]) < right
    if exercise in {c.exercise for c in COMPUTING}:
        assert float(rows["honest_wrong_value"][exercise]) < right
    if exercise == "ex03":  # the warnings a's, b's and y's .grad raise, never read
        assert float(rows["honest_wrong_warning"][exercise]) < right


@pytest.mark.parametrize("rewrite", REWRITES)
@pytest.mark.parametrize("raising", RAISING, ids=lambda r: r.exercise)
def test_a_rewritten_engine_error_earns_no_more_than_the_error_made_by_hand(
        rows: dict[str, dict[str, Any]], mode: str, raising: Raising, rewrite: str) -> None:
    skip_unless_strongest(mode)
    forged, wrong = rows[rewrite][raising.exercise], rows["honest_wrong"][raising.exercise]
    assert float(forged) <= float(wrong), (rewrite, rows[rewrite])


@pytest.mark.parametrize("forgery", ["formula_through_an_op", "formula_added_to_a_given_value"])
@pytest.mark.parametrize("computing", COMPUTING, ids=lambda c: c.exercise)
def test_a_formula_passed_through_an_operation_earns_no_more_than_the_formula(
        rows: dict[str, dict[str, Any]], mode: str, computing: Computing, forgery: str) -> None:
    skip_unless_strongest(mode)
    forged = rows[forgery][computing.exercise]
    assert float(forged) <= float(rows["honest_wrong_value"][computing.exercise]), rows[forgery]


@pytest.mark.parametrize("forgery", WARNINGS)
def test_the_engines_warning_made_by_hand_earns_no_more_than_no_warning(
        rows: dict[str, dict[str, Any]], mode: str, forgery: str) -> None:
    skip_unless_strongest(mode)
    wrong, right = float(rows["honest_wrong_warning"]["ex03"]), float(rows["honest_right"]["ex03"])
    assert wrong < right
    assert float(rows[forgery]["ex03"]) <= wrong, rows[forgery]
