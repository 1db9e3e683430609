"""The gallery's table format: plausible answers to an exercise and what grading must say.

Each exercise has a folder ``gallery/exNN/`` of submissions and a ``cases.py`` listing them:

    CASES = [
        Wrong("formula_backprop",                      # gallery/ex01/formula_backprop.py
              fails={"backprop gives dy/dw and dy/dx":  # a test it must fail ...
                     "ran no backward pass"}),          # ... with these words in its feedback
        Correct("operators_swapped"),                   # must score full marks
    ]

``fails`` maps a test name to a fragment of the feedback that names the real mistake (the kind
of difference, not the test's advice); a Wrong answer may fail other tests too.  Every failed
test of every case must have feedback, and no feedback may contain a number that any test of
the exercise (hidden ones included) expects.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

GALLERY = Path(__file__).resolve().parent / "gallery"


@dataclass(frozen=True)
class Wrong:
    """A plausible wrong answer: it loses points, with feedback naming its mistake."""

    name: str
    fails: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Correct:
    """A correct answer written differently from the reference: full marks."""

    name: str


Case = Wrong | Correct


def load_cases() -> list[tuple[str, Case]]:
    """Every (exercise id, case) of every ``gallery/exNN/cases.py``, in order."""
    found = []
    for table in sorted(GALLERY.glob("ex*/cases.py")):
        spec = importlib.util.spec_from_file_location(f"gallery_{table.parent.name}", table)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found += [(table.parent.name, case) for case in module.CASES]
    return found


def path_of(exercise_id: str, case: Case) -> Path:
    return GALLERY / exercise_id / f"{case.name}.py"
