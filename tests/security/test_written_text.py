"""A text written down where the statement asks for what the engine said: ex03's
``grad_warning`` returns the engine's warning text by a rule of its own (a non-leaf that does
not retain its grad), with the words copied into the file, after reading ``v.grad`` with the
warning silenced.  It answers every call as the engine's warning would, so its results alone
cannot tell it; it is judged by the object it returns, which is not the message the engine
warned with.  It earns no more than the honest wrong answer it is made from, which records
without ``simplefilter("always")`` (and so misses a warning the caller's filters had already
shown).  Graded in the strongest mode here: it acts on Python's objects alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from batches import MODES, REPO, graded_class
from modes import strongest_here

from micrograph.value import NONLEAF_GRAD_WARNING

SOLVED = (REPO / "solutions" / "ex03_retain_grad.py").read_text()
RECORDED = '''    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    return str(caught[0].message) if caught else None
'''
NO_FILTER = '''    with warnings.catch_warnings(record=True) as caught:
        _ = v.grad  # no simplefilter: a warning shown once before is not caught again
    return str(caught[0].message) if caught else None
'''
WRITTEN = f'''    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        held = v.grad  # read, as the statement asks; the text is written down
    if held is None and not v.is_leaf and not v.retains_grad:
        return {NONLEAF_GRAD_WARNING!r}
    return None
'''


def _with(body: str) -> str:
    assert SOLVED.count(RECORDED) == 1
    return SOLVED.replace(RECORDED, body)


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, dict[str, Any]]:
    strongest = next((mode for mode in MODES if strongest_here(mode)), None)
    if strongest is None:
        pytest.skip("children run in no mode here")
    files = {name: {"ex03_retain_grad.py": code} for name, code in
             (("honest_right", SOLVED), ("honest_wrong", _with(NO_FILTER)), ("written", _with(WRITTEN)))}
    return graded_class(strongest, tmp_path_factory, "written", files, answers, ("ex03",))


def test_the_honest_answers_are_told_apart(rows: dict[str, dict[str, Any]]) -> None:
    assert float(rows["honest_wrong"]["ex03"]) < float(rows["honest_right"]["ex03"]), rows


def test_a_text_written_down_earns_no_more_than_the_honest_wrong_answer(rows: dict[str, dict[str, Any]]) -> None:
    assert float(rows["written"]["ex03"]) <= float(rows["honest_wrong"]["ex03"]), rows["written"]
    assert "not a text written down" in rows["written"]["text"], rows["written"]["text"][:3000]
