"""The engine's seams and the sandbox attacked from inside a run with every layer on, in every
isolation mode this machine gives (``seam_attacks.py`` holds the attacks).

Every attack is graded beside the honest wrong ex01 and the right one, as one class: none earns
more than the honest wrong answer; those that reach grading's internals are flagged for the
instructor; every attempt on the machine is refused (no ``INTEGRITY <name> ALLOWED``), and the
canary folder outside the sandbox, open to everyone, is as the test made it.

Every mode grades the attacks on the machine (``SYSTEM``), which its kernel layers meet; the
forgeries act on Python's objects alone, which meet the same code in every mode
(``modes.strongest_here``): they are graded in the strongest mode this machine gives.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from batches import MODES, REPO, graded_class
from integrity_attacks import said
from modes import one_class_per_mode, skip_unless, skip_unless_strongest, strongest_here
from provenance_attacks import HONEST_WRONG, SOLUTION
from seam_attacks import FORGERIES, SEAMS, SYSTEM, Seam, code

FLAGGED = "flagged for the instructor"
CANARY = "unchanged"


@pytest.fixture(scope="module", params=one_class_per_mode("seam-class", MODES))
def mode(request: pytest.FixtureRequest) -> str:
    skip_unless(request.param)
    return request.param


@pytest.fixture(scope="module")
def graded(mode: str, tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, Any]:
    """This mode's attacks, the honest wrong and the right answer, graded as one class; the canary."""
    canary = tmp_path_factory.mktemp("canary")
    (canary / "file").write_text(CANARY)
    os.chmod(canary, 0o777)
    os.chmod(canary / "file", 0o666)
    folder = f"seams-{mode.replace(' ', '-').replace('+', '-')}0"  # graded_class's first
    cache = tmp_path_factory.getbasetemp() / folder / "cache"  # where it keeps the answers
    files = {s.name: {"ex01_graph.py": code(s, str(canary), str(REPO / "solutions"),
                                            str(REPO / "grader" / "exercises"), str(cache))}
             for s in (SEAMS if strongest_here(mode) else SYSTEM)}
    files.update(honest_wrong={"ex01_graph.py": HONEST_WRONG}, honest_right={"ex01_graph.py": SOLUTION})
    rows = graded_class(mode, tmp_path_factory, "seams", files, answers)
    return {"rows": rows, "canary": canary}


def test_the_honest_answers_are_told_apart_and_never_flagged(graded: dict[str, Any]) -> None:
    right, wrong = graded["rows"]["honest_right"], graded["rows"]["honest_wrong"]
    assert 0 < float(wrong["ex01"]) < float(right["ex01"]), (wrong, right)
    assert FLAGGED not in right["text"] and FLAGGED not in wrong["text"]


@pytest.mark.parametrize("seam", SEAMS, ids=lambda s: s.name)
def test_an_attack_earns_no_more_than_the_honest_wrong_answer(graded: dict[str, Any], mode: str, seam: Seam) -> None:
    if seam not in SYSTEM:
        skip_unless_strongest(mode)
    rows = graded["rows"]
    assert float(rows[seam.name]["ex01"]) <= float(rows["honest_wrong"]["ex01"]), rows[seam.name]


@pytest.mark.parametrize("seam", [s for s in FORGERIES if s.kind is not None], ids=lambda s: s.name)
def test_a_reach_for_the_engines_internals_is_flagged(graded: dict[str, Any], mode: str, seam: Seam) -> None:
    skip_unless_strongest(mode)
    text = graded["rows"][seam.name]["text"]
    assert FLAGGED in text and seam.kind in text, text[:3000]


@pytest.mark.parametrize("seam", SEAMS, ids=lambda s: s.name)
def test_every_attempt_is_refused(graded: dict[str, Any], mode: str, seam: Seam) -> None:
    if seam not in SYSTEM:
        skip_unless_strongest(mode)
    text = graded["rows"][seam.name]["text"]
    outcomes = said(text)
    assert "ALLOWED" not in outcomes.values(), outcomes
    if seam in SYSTEM:
        assert outcomes, text[:3000]  # it ran, and said what each attempt got
    if outcomes.get("pipes_by_path") == "WROTE":  # a pipe of its own: the relay reads nonces
        assert "tampered with" in text, text[:3000]
    if outcomes.get("uid"):
        assert outcomes["uid"] == "UNPRIVILEGED", outcomes


def test_nothing_outside_the_sandbox_changed(graded: dict[str, Any]) -> None:
    canary: Path = graded["canary"]
    assert sorted(p.name for p in canary.iterdir()) == ["file"]
    assert (canary / "file").read_text() == CANARY
    assert (canary / "file").stat().st_mode & 0o777 == 0o666
    assert (canary / "file").stat().st_mtime > 0
