"""Find the exercises: their test modules, ids, and the student's files.

Test modules live in a directory of ``exNN.py`` files (``grader/exercises`` by default; a student
release or a Gradescope bundle may point elsewhere).  Each is loaded from its file, so the exact
text the grader sends to the sandbox is the text it declared the tests from.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import _
from grader.spec import Exercise, SpecError

DEFAULT_TESTS_DIR = Path(__file__).resolve().parents[1] / "exercises"
_FILE = re.compile(r"(ex\d\d)\.py")


class CatalogError(Exception):
    """An exercise that cannot be named or loaded; the message is one line for the user."""


@dataclass(frozen=True)
class LoadedExercise:
    """An exercise declaration together with the source text of its test module."""

    spec: Exercise
    module_name: str
    source: str
    path: Path


def parse_id(text: str) -> str:
    """``"3"``, ``"03"``, ``"ex3"``, ``"ex03"`` (any case) -> ``"ex03"``."""
    match = re.fullmatch(r"(?:ex)?0*(\d{1,2})", text.strip().lower())
    if not match or not 1 <= int(match.group(1)) <= 99:
        raise CatalogError(_("{text} is not an exercise: use a number such as 3, ex3 or ex03", text=repr(text)))
    return f"ex{int(match.group(1)):02d}"


def exercise_ids(tests_dir: Path = DEFAULT_TESTS_DIR) -> list[str]:
    """The ids of every test module in ``tests_dir``, in order."""
    if not tests_dir.is_dir():
        return []
    return sorted(m.group(1) for p in tests_dir.iterdir() if (m := _FILE.fullmatch(p.name)))


def load(exercise_id: str, tests_dir: Path = DEFAULT_TESTS_DIR) -> LoadedExercise:
    """Import one test module from its file and check its declaration."""
    path = tests_dir / f"{exercise_id}.py"
    if not path.is_file():
        known = ", ".join(exercise_ids(tests_dir)) or "none"
        raise CatalogError(_("no exercise {id} (known: {known})", id=exercise_id, known=known))
    name = f"grader.exercises.{exercise_id}"
    source = path.read_text(encoding="utf-8")
    try:
        module_spec = importlib.util.spec_from_file_location(name, path)
        assert module_spec is not None and module_spec.loader is not None
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        exercise = module.EXERCISE
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a broken test file is one line
        raise CatalogError(_("{path} is broken: {error}", path=path, error=f"{type(exc).__name__}: {exc}")) from None
    if not isinstance(exercise, Exercise) or exercise.id != exercise_id or not exercise.tests:
        raise CatalogError(_("{path} must define EXERCISE = Exercise({id}, ...) with at least one test",
                             path=path, id=repr(exercise_id)))
    return LoadedExercise(exercise, name, source, path)


def submission_candidates(folder: Path, exercise: Exercise, every: bool = False) -> list[Path]:
    """The files in ``folder`` that may be the student's file for ``exercise``:
    ``<module>.py`` alone if it exists (unless ``every``), else every ``exNN_*.py`` and
    ``exNN_*.ipynb`` (a notebook, graded by its code cells)."""
    exact = folder / f"{exercise.module}.py"
    if exact.is_file() and not every:
        return [exact]
    return sorted(p for suffix in ("py", "ipynb") for p in folder.glob(f"{exercise.id}_*.{suffix}")
                  if p.is_file())


def find_submission(folder: Path, exercise: Exercise) -> Path | None:
    """The student's file for ``exercise`` in ``folder``: ``<module>.py``, else a unique
    ``exNN_*.py``."""
    candidates = submission_candidates(folder, exercise)
    return candidates[0] if len(candidates) == 1 else None


__all__ = ["CatalogError", "LoadedExercise", "SpecError", "exercise_ids", "find_submission",
           "load", "parse_id", "submission_candidates"]
