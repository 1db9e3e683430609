"""The engine's seams and the sandbox attacked from inside a run with every layer on, in every
isolation mode this machine gives (``seam_attacks.py`` holds the attacks).

Every attack is graded beside the honest wrong ex01 and the right one, as one class: none earns
more than the honest wrong answer; those that reach grading's internals are flagged for the
instructor; every attempt on the machine is refused (no ``INTEGRITY <name> ALLOWED``) and
flagged, and the canary folder outside the sandbox, open to everyone, is as the test made it.

Every mode grades the attacks on the machine (``SYSTEM``), which its kernel layers meet; the
forgeries act on Python's objects alone, which meet the same code in every mode
(``modes.strongest_here``): they are graded in the strongest mode this machine gives.  So are,
in the same class, the ex02, ex03 and ex05 files whose .grad numbers backward wrote but their
own code chose (``chosen_attacks.py``): none earns more than the honest wrong answer it is made
from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from batches import MODES, REPO, graded_class
from chosen_attacks import ATTACKS, FILES, HONEST_WRONG as WRONG_ELSEWHERE, SOLVED, Attack
from integrity_attacks import said
from modes import one_class_per_mode, skip_unless, skip_unless_strongest, strongest_here
from provenance_attacks import HONEST_WRONG, SOLUTION
from seam_attacks import FORGERIES, SEAMS, SYSTEM, Seam, code

from grader.sandbox import isolation
from grader.sandbox.child.wire import Touch

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
    exercises: tuple[str, ...] = ("ex01", *FILES) if strongest_here(mode) else ("ex01",)
    files.update({a.name: a.files() for a in ATTACKS} if strongest_here(mode) else {})
    files.update(honest_wrong={"ex01_graph.py": HONEST_WRONG, **{FILES[ex]: code for ex, code in WRONG_ELSEWHERE.items()}},
                 honest_right={"ex01_graph.py": SOLUTION, **SOLVED})
    rows = graded_class(mode, tmp_path_factory, "seams", files, answers, exercises)
    return {"rows": rows, "canary": canary}


def test_the_honest_answers_are_told_apart_and_never_flagged(graded: dict[str, Any], mode: str) -> None:
    right, wrong = graded["rows"]["honest_right"], graded["rows"]["honest_wrong"]
    for exercise in ("ex01", *FILES) if strongest_here(mode) else ("ex01",):
        assert 0 < float(wrong[exercise]) < float(right[exercise]), (exercise, wrong, right)
    assert FLAGGED not in right["text"] and FLAGGED not in wrong["text"]


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.name)
def test_a_number_the_code_chose_earns_no_more_than_the_honest_wrong_answer(graded: dict[str, Any], mode: str,
                                                                           attack: Attack) -> None:
    skip_unless_strongest(mode)
    rows = graded["rows"]
    assert float(rows[attack.name][attack.exercise]) <= float(rows["honest_wrong"][attack.exercise]), rows[attack.name]


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


# the process's own descriptors by path: not the machine; the relay sees a write (tampered)
ON_THE_MACHINE = [s for s in SYSTEM if s.name != "own_pipes_by_path"]


@pytest.mark.parametrize("seam", ON_THE_MACHINE, ids=lambda s: s.name)
def test_an_attempt_on_the_machine_is_flagged(graded: dict[str, Any], seam: Seam) -> None:
    """Seen by the sentinel as it is tried, not by the kernel's refusal, which only the
    submission's own process sees."""
    text = graded["rows"][seam.name]["text"]
    assert FLAGGED in text and Touch.MACHINE.value in text, text[:3000]


def test_each_call_without_an_audit_event_of_its_own_is_refused_by_the_sentinel(graded: dict[str, Any]) -> None:
    """Refused before the kernel could (its refusal carries an errno, the sentinel's none):
    each was seen, and flagged, as it was tried."""
    outcomes = said(graded["rows"]["calls_without_an_audit_event_of_their_own"]["text"])
    assert outcomes and set(outcomes.values()) == {"None"}, outcomes


SWAPS = [s for s in FORGERIES if "class_swapped" in s.name]


@pytest.fixture(scope="module")
def unfrozen(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, dict[str, Any]]:
    """The class swaps and the honest wrong answer, graded where the engine's classes stay
    mutable (``GRADE_FREEZE=off``, as without ctypes), in the strongest mode here."""
    mode = isolation.available().mode
    files = {s.name: {"ex01_graph.py": s.code} for s in SWAPS}
    files.update(honest_wrong={"ex01_graph.py": HONEST_WRONG})
    return graded_class(mode, tmp_path_factory, "unfrozen", files, answers, GRADE_FREEZE="off")


@pytest.mark.parametrize("seam", SWAPS, ids=lambda s: s.name)
def test_a_class_swapped_within_a_step_is_flagged_where_classes_stay_mutable(
        unfrozen: dict[str, dict[str, Any]], seam: Seam) -> None:
    row, text = unfrozen[seam.name], unfrozen[seam.name]["text"]
    assert float(row["ex01"]) <= float(unfrozen["honest_wrong"]["ex01"]), row
    assert FLAGGED in text and Touch.OBSERVER.value in text, text[:3000]


def test_nothing_outside_the_sandbox_changed(graded: dict[str, Any]) -> None:
    canary: Path = graded["canary"]
    assert sorted(p.name for p in canary.iterdir()) == ["file"]
    assert (canary / "file").read_text() == CANARY
    assert (canary / "file").stat().st_mode & 0o777 == 0o666
    assert (canary / "file").stat().st_mtime > 0
