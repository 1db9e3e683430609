"""One student's result on disk, as ``grade batch`` leaves it: ``OUT/<student>/results.json`` in
Gradescope's schema with the batch's own record in ``extra_data.batch``, and the ``Row`` of the
CSV and the report read back from it."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from grader.course.entries import Entry
from grader.course.intake import Intake
from grader.i18n import _
from grader.judge.grading import IMPORT_ERROR, RAN, SYNTAX_ERROR, ExerciseResult
from grader.judge.status import PASSED, TIMEOUT
from grader.publish import gradescope_results

FORMAT = 2  # 2: each exercise records its outcome (ran, syntax error, untouched stub, ...)
RESULTS_NAME = "results.json"

RowStatus = Literal["ok", "timeout", "error"]
"""About grading, not the code: graded / some exercise ran out of time / the entry or one of its
files could not be graded as handed in (or the grader failed)."""
OK: Final = "ok"
ROW_TIMEOUT: Final = "timeout"
ROW_ERROR: Final = "error"
ROW_STATUSES: Final = (OK, ROW_TIMEOUT, ROW_ERROR)


@dataclass
class Row:
    """What the CSV and the report's summary need of one student (the rest stays on disk)."""

    student: str
    slug: str
    scores: dict[str, float]
    status: RowStatus
    detail: str
    failed: list[tuple[str, str, bool, str]] = field(default_factory=list)
    outcomes: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.scores.values())


def student_status(intake: Intake, results: list[ExerciseResult], failures: list[str],
                   ids: list[str], entry: str) -> tuple[RowStatus, str]:
    """ok / timeout / error for the whole student, and a one-line detail.

    ``error`` means the entry or one of its files could not be graded as handed in (or the
    grader failed); ``timeout`` that some exercise ran out of time; the submission's own
    exceptions are part of its score, not of its status, but an exercise that did not even
    import (a syntax error) is named in the detail, as the report shows it.  ``entry`` names
    the entry: a single file said once what layout a batch expects."""
    if intake.error:
        return ROW_ERROR, intake.error
    timeouts, unimported = [], []
    for r in results:
        timed_out = [t.feedback for t in r.tests if t.status == TIMEOUT]
        timeouts += [f"{r.exercise} {timed_out[0]}"] if timed_out else []
        if r.outcome in (SYNTAX_ERROR, IMPORT_ERROR) and r.tests:
            unimported.append(f"{r.exercise} {r.tests[0].feedback}")
    missing = [i for i in ids if i not in intake.files and i not in intake.problems]
    parts = [*failures, *intake.problems.values(), *unimported, *timeouts, *intake.notes]
    if missing and intake.one_file:
        parts.append(_("{entry} is a single file, graded as {id} only: for several exercises "
                       "hand in one folder or .zip per student, with exNN_<topic>.py files",
                       entry=entry, id=", ".join(intake.files) or "-"))
    elif missing:
        parts.append(_("no file for {ids}", ids=", ".join(missing)))
    status = ROW_ERROR if failures or intake.problems else ROW_TIMEOUT if timeouts else OK
    return status, "; ".join(parts)


def write_record(staging: Path, entry: Entry, key: str, status: RowStatus, detail: str,
                 elapsed: float, results: list[ExerciseResult], ran: set[str]) -> Row:
    """Write ``staging/results.json`` for one student (``ran``: the exercises that had a file
    to grade); returns their row."""
    record = {
        "format": FORMAT, "student": entry.student, "entry": entry.label, "slug": entry.slug,
        "key": key, "status": status, "detail": detail, "elapsed": round(elapsed, 3),
        "exercises": [_exercise_record(r, staging, r.exercise in ran) for r in results],
    }
    graded = [gradescope_results.Graded(r, hidden_stdout=r.stdout) for r in results]
    data = gradescope_results.results(graded, execution_time=record["elapsed"],
                                      notes=[detail] if detail else [], extra={"batch": record})
    gradescope_results.write(staging / RESULTS_NAME, data)
    return row_of(record)


def _exercise_record(result: ExerciseResult, staging: Path, ran: bool) -> dict[str, Any]:
    return {
        "exercise": result.exercise, "title": result.title, "ran": ran,
        "outcome": result.outcome,
        "score": result.score, "max_score": result.max_score,
        "tests": [{**t.to_json(), "public": t.public} for t in result.tests],
        "diagrams": [Path(p).relative_to(staging).as_posix() for p in result.diagrams
                     if Path(p).is_relative_to(staging)],
        "notes": [_in_folder(note, staging) for note in result.notes], "stdout": result.stdout, "stdout_lines": result.stdout_lines,
        "stdout_dropped": result.stdout_dropped,
    }


def _in_folder(note: str, staging: Path) -> str:
    """A note with the paths of the student's diagrams relative to their folder, as ``diagrams``
    lists them: the folder is assembled in ``staging`` and renamed into place, so a path into
    ``staging`` names a file that is no longer there."""
    return note.replace(f"{staging}{os.sep}", "")


def row_of(record: dict[str, Any]) -> Row:
    failed = [(e["exercise"], t["name"], t["public"], t["feedback"])
              for e in record["exercises"] if e["outcome"] == RAN
              for t in e["tests"] if t["status"] != PASSED]
    return Row(record["student"], record["slug"],
               {e["exercise"]: e["score"] for e in record["exercises"]},
               record["status"], record["detail"], failed,
               {e["exercise"]: e["outcome"] for e in record["exercises"]})


def read_record(folder: Path) -> dict[str, Any] | None:
    """The batch record inside ``folder/results.json``, or None if absent or unreadable."""
    try:
        data = json.loads((folder / RESULTS_NAME).read_text(encoding="utf-8"))
        record = data["extra_data"]["batch"]
        return record if record.get("format") == FORMAT else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
