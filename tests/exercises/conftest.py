"""Fixtures for the exercises' own tests (helpers live in exercise_grading.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from exercise_grading import Grading


@pytest.fixture(scope="session")
def grading(answers: Path) -> Grading:
    """Grading against the run's shared cache of expected answers (tests/conftest.py)."""
    return Grading(answers)
