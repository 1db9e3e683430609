"""A test's outcome, as every part of the grader names it (tables, JSON, Gradescope, the batch)."""

from __future__ import annotations

from typing import Final, Literal, get_args

Status = Literal["passed", "failed", "error", "timeout", "autograder"]
PASSED: Final = "passed"  # the observations match the reference's
FAILED: Final = "failed"  # they differ
ERROR: Final = "error"  # nothing to compare: the submission raised, could not be run, ...
TIMEOUT: Final = "timeout"  # nothing to compare: it ran out of time
ELSEWHERE: Final = "autograder"  # hidden tests a release does not hold: graded on the course
                                 # autograder
STATUSES: Final = get_args(Status)
