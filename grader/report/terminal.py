"""Human-readable output: a table per exercise, then a summary when there are several.

Texts are in the student's language (``grader.i18n``); columns are measured in terminal
columns (``width``), so Chinese cells line up.
"""

from __future__ import annotations

import shutil
import sys

from grader.i18n import N_, _, outcome_word, status_word, test_name, visibility
from grader.judge.grading import NOT_GRADED, UNTOUCHED, ExerciseResult, TestResult
from grader.judge.status import ELSEWHERE, ERROR, TIMEOUT
from grader.report.width import column_shape, column_width, longest_word, pad, pad_shape, width, wrap

_STDOUT_LINES = 15
MIN_LAST_COLUMN = 32
"""Columns the last column needs beside the others (and at least its widest word): narrower,
its cells go under their rows across the whole line, so no word is cut in two."""
MIN_FEEDBACK_COLUMN = 50
"""... and a test's feedback, sentences rather than a title: wrapped in fewer columns beside
the test's name, a sentence reads a few words a line, so it goes under its row instead."""


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
    return _("public {score}", score=text) if any(r.public_only for r in results) else text


def total(results: list[ExerciseResult]) -> str:
    """The score, and for a release what the course autograder adds."""
    elsewhere = sum(t.max_score for r in results for t in r.tests if t.status == ELSEWHERE)
    if not elsewhere:
        return score(results)
    return _("{score} (hidden tests, worth {points} more points, are graded on the course autograder)",
             score=score(results), points=f"{elsewhere:g}")


def _table(rows: list[list[str]], wrap_last: int, least: int = MIN_LAST_COLUMN) -> list[str]:
    """Left-aligned columns; each line fits in ``wrap_last`` terminal columns (the last column
    wraps, beside the others, or under each row when beside them a word would be cut).  On a
    terminal the columns are as wide as their widest cell; written anywhere else (a notebook's
    ``!grade``, a file, a pipe) they line up in a browser too (``pad_shape``), which takes wider
    columns where Chinese and ASCII cells mix."""
    if sys.stdout.isatty():
        widths = [column_width([r[i] for r in rows]) for i in range(len(rows[0]) - 1)]
        heads = ["  ".join(pad(cell, w) for cell, w in zip(row, widths)) for row in rows]
        indent = " " * width(heads[0])
    else:
        shapes = [column_shape([r[i] for r in rows]) for i in range(len(rows[0]) - 1)]
        heads = ["  ".join(pad_shape(cell, *s) for cell, s in zip(row, shapes)) for row in rows]
        indent = pad_shape("", *column_shape(heads))  # under the last column, in either kind of space
    room = wrap_last - width(heads[0]) - 4
    told = any(row[-1] for row in rows[1:])  # else only the heading is left beside the others
    if told and room < max([least, *(longest_word(row[-1]) for row in rows[1:])]):
        return _rows_then_last(rows, heads, wrap_last)
    lines = []
    for row, head in zip(rows, heads):
        wrapped = wrap(row[-1], max(20, room)) or [""]
        lines.append(f"  {head}  {wrapped[0]}".rstrip())
        lines += [f"  {indent}  {more}" for more in wrapped[1:]]
    return lines


def _rows_then_last(rows: list[list[str]], heads: list[str], columns: int) -> list[str]:
    """Each row's other columns on one line, its last cell wrapped under it, indented."""
    lines = []
    for row, head in zip(rows, heads):
        lines.append(f"  {head}".rstrip())
        lines += [f"      {more}" for more in wrap(row[-1], max(20, columns - 6))]
    return lines


UNTOUCHED_SENTENCE = N_("every function the tests call still raises NotImplementedError")


DID_NOT_LOAD = N_("no test ran ({points}): {why}")
ONE_CAUSE = N_("every test met the same error ({points}): {why}")


def not_started(result: ExerciseResult) -> bool:
    """An exercise whose stub is untouched: one line, not a table of the same error."""
    return result.outcome == UNTOUCHED and not result.untouched_why and not result.stdout.strip()


def told_once(result: ExerciseResult) -> str | None:
    """The sentence that stands for an exercise's whole table when every test met one cause: its
    stub untouched (or, in a build-track stage, an earlier stage's), its file did not load or was
    not run (not UTF-8, say), or every test graded here met the same error (an import the grader
    refuses, say); what the submission printed is shown under it (``exercise``), as under a table."""
    if result.outcome == UNTOUCHED:
        return (f"{score([result])}: {result.untouched_why}" if result.untouched_why else
                _("not started ({points}): {why}", points=score([result]), why=_(UNTOUCHED_SENTENCE)))
    cause = _one_cause(result)
    if cause is None:
        return None
    ran_none = result.import_failure is not None or result.outcome == NOT_GRADED
    return _(DID_NOT_LOAD if ran_none else ONE_CAUSE, points=score([result]), why=cause)


def _one_cause(result: ExerciseResult) -> str | None:
    """The error every test graded here met, when they met one: why the file did not load, or
    the one feedback every test gave (an import the grader refuses, say)."""
    if result.import_failure is not None:
        return result.import_failure
    here = result.graded_here
    if len(here) > 1 and all(t.status == ERROR and t.feedback == here[0].feedback for t in here):
        return here[0].feedback
    return None


def told_once_notes(result: ExerciseResult) -> list[str]:
    """The notes under a sentence told once (``told_once``): those that do not say its cause
    again ("no diagram: <the same cause>"), begun with a capital there or not ("This notebook
    raised ..." in the table, "no diagram: this notebook raised ..." in the note)."""
    cause = None if result.outcome == UNTOUCHED else _one_cause(result)
    return [n for n in result.notes if cause and cause not in n and cause[:1].lower() + cause[1:] not in n]


SAME_ERROR = N_("the same error as in \"{test}\" above.")
SAME_TIMEOUT = N_("timed out as in \"{test}\" above, at the same place.")  # a time limit reached is no error


def errors_told_once(result: ExerciseResult) -> tuple[list[str], list[str]]:
    """Each test's feedback and the notes under the table, an error quoted in full where a test
    first met it and referred to after: four tests and the diagram's note quoting one message
    said it five times.  A note holds the error at its end (``...before this error: {why}``)."""
    first: dict[str, TestResult] = {}
    shown = []
    for test in result.tests:
        met = test.status in (ERROR, TIMEOUT) and bool(test.feedback)
        if met and test.feedback in first:
            said = SAME_TIMEOUT if test.status == TIMEOUT else SAME_ERROR
            shown.append(_(said, test=test_name(first[test.feedback].name)))
            continue
        if met:
            first[test.feedback] = test
        shown.append(test.feedback)
    notes = [next((note.removesuffix(error) + _(SAME_TIMEOUT if met.status == TIMEOUT else SAME_ERROR,
                                                 test=test_name(met.name))
                   for error, met in first.items() if note.endswith(error) and note != error), note)
             for note in result.notes]
    return shown, notes


HEADER = N_("{exercise}  {title}  ({where})")  # in Chinese the brackets are full-width: "（这个笔记本）"


def exercise(result: ExerciseResult, display: str) -> str:
    """The table for one exercise: test, public/hidden, points, status, feedback; or, when every
    test met one cause (``told_once``), one sentence saying so instead of the same error test by test."""
    header = _(HEADER, exercise=result.exercise, title=_(result.title), where=display)
    columns = shutil.get_terminal_size((100, 24)).columns
    said = told_once(result)
    if said is not None:
        return "\n".join([header, *("  " + line for line in wrap(said, max(20, columns - 4))),
                          *(f"  {note}" for note in told_once_notes(result)),
                          *(printed(result) if result.stdout.strip() else [])])
    feedback, notes = errors_told_once(result)
    rows = [[_("test"), "", _("points"), _("status"), _("feedback")]]
    rows += [[test_name(t.name), visibility(t.public), _test_points(t),
              status_word(t.status), told] for t, told in zip(result.tests, feedback)]
    lines = [header, *_table(rows, columns, MIN_FEEDBACK_COLUMN)]
    lines.append("  " + _("total: {points}", points=total([result])))
    if result.diagrams:
        lines.append("  " + _("diagram: {paths}", paths=", ".join(result.diagrams)))
    lines += [f"  {note}" for note in notes]
    if result.stdout.strip():
        lines += printed(result)
    return "\n".join(lines)


def printed(result: ExerciseResult) -> list[str]:
    """What the submission printed: the first lines, how many there were in all (counted
    before the grader's cap), and how many bytes the cap dropped."""
    kept = result.stdout.rstrip().splitlines()
    if result.stdout_dropped:
        kept = kept[:-1]  # the sandbox's own note that it cut the output, said below instead
    count = max(result.stdout_lines, len(kept))
    lines = ["  " + _.n("the submission's output, {count} line:", "the submission's output, {count} lines:",
                        count, count=count)]
    lines += [f"  | {line}" for line in kept[:_STDOUT_LINES]]
    more = count - min(len(kept), _STDOUT_LINES)
    cap = _("the grader kept the first {kept} bytes and dropped {dropped} bytes",
            kept=result.stdout_limit, dropped=result.stdout_dropped)
    if more and result.stdout_dropped:
        lines.append("  | " + _("... {count} more lines; {cap}", count=more, cap=cap))
    elif more:
        lines.append("  | " + _("... {count} more lines", count=more))
    elif result.stdout_dropped:
        lines.append(f"  | ... {cap}")
    return lines


def summary(results: list[ExerciseResult]) -> str:
    """One line per exercise and the total."""
    rows = [[_("exercise"), _("score"), _("result"), _("title")]]
    for r in results:
        rows.append([r.exercise, score([r]), _verdict(r), _(r.title)])
    columns = shutil.get_terminal_size((100, 24)).columns
    return "\n".join([_("summary"), *_table(rows, columns), "  " + _("total: {points}", points=total(results))])


def _verdict(result: ExerciseResult) -> str:
    if result.outcome == UNTOUCHED:
        if result.untouched_parts:
            return _("new parts to write")
        return _("needs an earlier stage") if result.untouched_why else _("not started")
    if result.import_failure is not None or result.outcome == NOT_GRADED:  # no file: nothing raised
        return outcome_word(result.outcome)
    if result.full_marks:
        return _("public tests passed") if result.public_only else _("full marks")
    if any(t.status in (ERROR, TIMEOUT) for t in result.tests):
        return _("errors")
    return _("not full")


def isolation_note(describe: str, mode: str) -> str | None:
    """The line that says submissions ran without the Linux sandbox (``limits only``: macOS,
    Windows, a kernel without namespaces), so nobody mistakes it for the sandbox."""
    return describe if mode == "limits only" else None

