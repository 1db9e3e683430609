"""Human-readable output: a table per exercise, then a summary when there are several."""

from __future__ import annotations

import shutil
import textwrap

from grader.judge.grading import ExerciseResult

_STDOUT_LINES = 15


def points(score: int | float, max_score: int | float) -> str:
    return f"{score:g}/{max_score:g}"


def _table(rows: list[list[str]], wrap_last: int) -> list[str]:
    """Left-aligned columns; the last column is wrapped to ``wrap_last`` characters."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        head = "  ".join(cell.ljust(w) for cell, w in zip(row, widths))
        wrapped = textwrap.wrap(row[-1], max(20, wrap_last - len(head) - 2)) or [""]
        lines.append(f"  {head}  {wrapped[0]}".rstrip())
        lines += [f"  {' ' * len(head)}  {more}" for more in wrapped[1:]]
    return lines


def exercise(result: ExerciseResult, display: str) -> str:
    """The table for one exercise: test, public/hidden, points, status, feedback."""
    width = shutil.get_terminal_size((100, 24)).columns
    rows = [["test", "", "points", "status", "feedback"]]
    rows += [[t.name, "public" if t.public else "hidden", points(t.score, t.max_score),
              t.status, t.feedback] for t in result.tests]
    lines = [f"{result.exercise}  {result.title}  ({display})", *_table(rows, width)]
    lines.append(f"  total: {points(result.score, result.max_score)}")
    if result.diagrams:
        lines.append("  diagram: " + ", ".join(result.diagrams))
    lines += [f"  {note}" for note in result.notes]
    if result.stdout.strip():
        printed = result.stdout.rstrip().splitlines()
        lines.append("  the submission printed:")
        lines += [f"  | {line}" for line in printed[:_STDOUT_LINES]]
        if len(printed) > _STDOUT_LINES:
            lines.append(f"  | ... ({len(printed) - _STDOUT_LINES} more lines)")
    return "\n".join(lines)


def summary(results: list[ExerciseResult]) -> str:
    """One line per exercise and the total."""
    rows = [["exercise", "score", "result", "title"]]
    for r in results:
        verdict = "full marks" if r.full_marks else "errors" if any(
            t.status in ("error", "timeout") for t in r.tests) else "not full"
        rows.append([r.exercise, points(r.score, r.max_score), verdict, r.title])
    total = points(sum(r.score for r in results), sum(r.max_score for r in results))
    width = shutil.get_terminal_size((100, 24)).columns
    return "\n".join(["summary", *_table(rows, width), f"  total: {total}"])
