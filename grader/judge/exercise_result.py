"""What a grade is: one test's outcome, one exercise's result for one submission, and the names of
how an exercise went as a whole.

Kept apart from ``grading`` (which computes these) because the reports, the publishers, the batch
and the notebook read them without running anything: they need the shape of a grade, not how it
is judged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.judge.status import ELSEWHERE, PASSED, Status
from grader.spec import Limits

# How a submission's exercise went as a whole, so a class report can tell misconceptions (the
# tests of submissions that ran) from submissions that never got that far.
RAN, SYNTAX_ERROR, IMPORT_ERROR = "ran", "syntax error", "import error"
UNTOUCHED, TIMED_OUT, NOT_GRADED = "untouched stub", "timeout", "not graded"
OUTCOMES = (RAN, SYNTAX_ERROR, IMPORT_ERROR, UNTOUCHED, TIMED_OUT, NOT_GRADED)


@dataclass
class TestResult:
    """One test's outcome (``grader.judge.status``); ``feedback`` is empty when passed."""

    __test__ = False  # not a pytest class

    name: str
    public: bool
    score: int | float
    max_score: int | float
    status: Status
    feedback: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score, "max_score": self.max_score,
                "status": self.status, "feedback": self.feedback,
                "visibility": "public" if self.public else "hidden"}


@dataclass
class ExerciseResult:
    """One exercise's grade for one submission: the schema of ``grade --json`` plus a few extras."""

    exercise: str
    title: str
    tests: list[TestResult]
    diagrams: list[str] = field(default_factory=list)
    stdout: str = ""
    notes: list[str] = field(default_factory=list)
    sandbox: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    outcome: str = RAN
    # UNTOUCHED in a build-track stage begun (some of its file written, so "not started" would be
    # untrue): the sentence of the earlier stage's stub every test met, or of this stage's new
    # parts still stubs, whose names are then in untouched_parts
    untouched_why: str = ""
    untouched_parts: list[str] = field(default_factory=list)
    stdout_lines: int = 0  # what the submission printed, counted before the cap
    stdout_dropped: int = 0  # bytes of it past the cap
    stdout_limit: int = Limits().output  # the cap: bytes of it kept at most
    diagram_problem: str | None = None  # the note when the graph is missing or incomplete
    # graph.svg where difference.svg is that same graph with a node marked (the build track's): a
    # notebook shows the marked one alone, not one graph twice under a note naming only the second
    redrawn: list[str] = field(default_factory=list)
    flagged: str | None = None  # the instructor's note on a run that reached for grading's internals

    @property
    def score(self) -> int | float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> int | float:
        return sum(t.max_score for t in self.tests)

    @property
    def graded_here(self) -> list[TestResult]:
        """The tests this grader ran (a release's hidden tests run on the course autograder)."""
        return [t for t in self.tests if t.status != ELSEWHERE]

    @property
    def public_only(self) -> bool:
        """Whether some hidden tests were not graded here (a student release)."""
        return len(self.graded_here) != len(self.tests)

    @property
    def full_marks(self) -> bool:
        """Every test graded here passed (in a release: every public test)."""
        return all(t.status == PASSED for t in self.graded_here)

    @property
    def import_failure(self) -> str | None:
        """Why the file did not import (a syntax error and where, or the error its import
        raised), when it did not: every test then failed for that one reason, said once."""
        if self.outcome not in (SYNTAX_ERROR, IMPORT_ERROR) or not self.tests:
            return None
        return self.tests[0].feedback

    def to_json(self) -> dict[str, Any]:
        here = self.graded_here
        return {"exercise": self.exercise, "title": self.title, "score": self.score,
                "max_score": self.max_score, "graded_here": {
                    "score": sum(t.score for t in here), "max_score": sum(t.max_score for t in here),
                    "tests": len(here)},
                "outcome": self.outcome,
                "tests": [t.to_json() for t in self.tests], "diagrams": self.diagrams,
                "stdout": self.stdout, "stdout_lines": self.stdout_lines,
                "stdout_dropped": self.stdout_dropped, "notes": self.notes, "untouched_why": self.untouched_why}
