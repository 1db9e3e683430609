"""Human-readable output: a table per exercise, then a summary when there are several."""

from __future__ import annotations

import shutil
import textwrap

from grader.judge.grading import ExerciseResult, TestResult
from grader.judge.status import ELSEWHERE, ERROR, TIMEOUT

_STDOUT_LINES = 15


def points(score: int | float, max_score: int | float) -> str:
    return f"{score:g}/{max_score:g}"


def _test_points(test: TestResult) -> str:
    """``2/2``; hidden tests graded elsewhere have no score here, only their worth."""
    return f"-/{test.max_score:g}" if test.status == ELSEWHERE else points(test.score,
                                                                         test.max_score)


def score(results: list[ExerciseResult]) -> str:
    """``3/10``; ``public 5/5`` when hidden tests are graded elsewhere (a release)."""
    here = [t for r in results for t in r.graded_here]
    text = points(sum(t.score for t in here), sum(t.max_score for t in here))
    return f"public {text}" if any(r.public_only for r in results) else text


def total(results: list[ExerciseResult]) -> str:
    """The score, and for a release what the course autograder adds."""
    elsewhere = sum(t.max_score for r in results for t in r.tests if t.status == ELSEWHERE)
    if not elsewhere:
        return score(results)
    return (f"{score(results)} (hidden tests, worth {elsewhere:g} more points, are graded on "
            "the course autograder)")


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
    rows += [[t.name, "public" if t.public else "hidden", _test_points(t),
              t.status, t.feedback] for t in result.tests]
    lines = [f"{result.exercise}  {result.title}  ({display})", *_table(rows, width)]
    lines.append(f"  total: {total([result])}")
    if result.diagrams:
        lines.append("  diagram: " + ", ".join(result.diagrams))
    lines += [f"  {note}" for note in result.notes]
    if result.stdout.strip():
        lines += printed(result)
    return "\n".join(lines)


def printed(result: ExerciseResult) -> list[str]:
    """What the submission printed: the first lines, how many there were in all (counted
    before the grader's cap), and how many bytes the cap dropped."""
    kept = result.stdout.rstrip().splitlines()
    if result.stdout_dropped:
        kept = kept[:-1]  # the sandbox's own note that it cut the output, said below instead
    total = max(result.stdout_lines, len(kept))
    lines = [f"  the submission printed {total} line{'s' if total != 1 else ''}:"]
    lines += [f"  | {line}" for line in kept[:_STDOUT_LINES]]
    more = total - min(len(kept), _STDOUT_LINES)
    if more and result.stdout_dropped:
        lines.append(f"  | ... {more} more lines; the grader kept the first "
                     f"{result.stdout_limit} bytes and dropped {result.stdout_dropped} bytes")
    elif more:
        lines.append(f"  | ... {more} more lines")
    elif result.stdout_dropped:
        lines.append(f"  | ... the grader kept the first {result.stdout_limit} bytes and dropped "
                     f"{result.stdout_dropped} bytes")
    return lines


def summary(results: list[ExerciseResult]) -> str:
    """One line per exercise and the total."""
    rows = [["exercise", "score", "result", "title"]]
    for r in results:
        rows.append([r.exercise, score([r]), _verdict(r), r.title])
    width = shutil.get_terminal_size((100, 24)).columns
    return "\n".join(["summary", *_table(rows, width), f"  total: {total(results)}"])


def _verdict(result: ExerciseResult) -> str:
    if result.full_marks:
        return "public tests passed" if result.public_only else "full marks"
    if any(t.status in (ERROR, TIMEOUT) for t in result.tests):
        return "errors"
    return "not full"
