"""Provenance a submission cannot write, in every isolation mode this machine gives
(``provenance_attacks.py`` holds the forgeries).

Each forgery is the honest wrong ex01 plus one way of making the probes report the facts the
right answer earns (numbers read from .grad, one backward pass, no pass where only a walk is
allowed): through the engine's observation records, the profile hook, stack frames, code
compiled under the engine's name (or loaded so: ``disguise_attacks.py``), the garbage
collector, ``ctypes``, the test module by name, the grader's pipes (the flag pipe too:
``flag_attacks.py``), the real ``builtins`` and ``sys`` reached without naming them, and
``str.format``'s fields (``lookup_attacks.py``), frames handed over without an audit event
and the standard library's own lookups by name (``library_attacks.py``).  Each scores no more
than the honest wrong answer, and each is flagged for the instructor; those the interpreter can
see as they run were also blocked by the child's sentinel.  The right answer is flagged for nothing.

Every mode grades the honest answers and the forgeries through the process's pipes and memory
(``IN_EVERY_MODE``), which a mode's kernel layers hold; the others act on Python's objects
alone, which meet the same code in every mode (``modes.strongest_here``): they are graded in the
strongest mode this machine gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from batches import MODES, graded_class
from modes import one_class_per_mode, skip_unless, skip_unless_strongest, strongest_here
from disguise_attacks import DISGUISED
from flag_attacks import SUPPRESSED
from library_attacks import LIBRARY
from lookup_attacks import LOOKUPS
from provenance_attacks import CLASSES, DEBUGGING, HONEST_WRONG, READING, SOLUTION, Forgery
from provenance_attacks import FORGERIES as WRITTEN

from grader.sandbox.child.wire import Touch

FLAGGED = "flagged for the instructor"
BLOCKED = "caught while running"
FORGERIES = [*WRITTEN, *DISGUISED, *SUPPRESSED, *LOOKUPS, *LIBRARY]
IN_EVERY_MODE = [f for f in FORGERIES if f.kind in (Touch.WIRE.value, Touch.MEMORY.value, Touch.MODULES.value)]


@pytest.fixture(scope="module", params=one_class_per_mode("provenance-class", MODES))
def mode(request: pytest.FixtureRequest) -> str:
    skip_unless(request.param)
    return request.param


@pytest.fixture(scope="module")
def rows(mode: str, tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, dict[str, Any]]:
    """The forgeries of this mode, the honest wrong and the right answers, graded as one class."""
    forgeries = FORGERIES if strongest_here(mode) else IN_EVERY_MODE
    entries = {f.name: f.code for f in forgeries}
    entries.update(honest_wrong=HONEST_WRONG, honest_right=SOLUTION, honest_debugging=DEBUGGING,
                   honest_reading=READING, honest_classes=CLASSES)
    files = {student: {"ex01_graph.py": code} for student, code in entries.items()}
    return graded_class(mode, tmp_path_factory, "provenance", files, answers)


def test_the_honest_answers_are_told_apart_and_never_flagged(rows: dict[str, dict[str, Any]]) -> None:
    right, wrong, debugging = rows["honest_right"], rows["honest_wrong"], rows["honest_debugging"]
    reading, classes = rows["honest_reading"], rows["honest_classes"]
    assert float(wrong["ex01"]) < float(right["ex01"]) == float(debugging["ex01"]), (wrong, right)
    assert float(reading["ex01"]) == float(right["ex01"]) == float(classes["ex01"]), (reading, classes)
    assert "Traceback" in debugging["text"]  # printed, as it asked
    assert "ValueError" in reading["text"] and "requires_grad" in reading["text"]
    for row in (right, wrong, debugging, reading, classes):
        assert FLAGGED not in row["text"], row["text"][:2000]


@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.name)
def test_a_forgery_earns_no_more_than_the_honest_wrong_answer(rows: dict[str, dict[str, Any]], mode: str,
                                                              forgery: Forgery) -> None:
    if forgery not in IN_EVERY_MODE:
        skip_unless_strongest(mode)
    assert float(rows[forgery.name]["ex01"]) <= float(rows["honest_wrong"]["ex01"]), rows[forgery.name]


@pytest.mark.parametrize("forgery", FORGERIES, ids=lambda f: f.name)
def test_a_forgery_is_flagged_for_the_instructor(rows: dict[str, dict[str, Any]], mode: str,
                                                forgery: Forgery) -> None:
    if forgery not in IN_EVERY_MODE:
        skip_unless_strongest(mode)
    text = rows[forgery.name]["text"]
    if forgery.kind is None:  # nothing graded goes through what it changed: no more than told apart
        pytest.skip("changes nothing the grade reads")
    assert FLAGGED in text and forgery.kind in text, text[:3000]
    assert (BLOCKED in text) == forgery.runtime, text[:3000]
