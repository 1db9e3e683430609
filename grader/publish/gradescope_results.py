"""Grades in Gradescope's ``results.json`` schema: what the student sees, and when.

One entry per test: ``name`` ("ex03: a.grad after retain_grad"), ``number`` ("3.1": exercise,
then the test's place in it), ``score``, ``max_score``, ``status`` ("passed"/"failed"; errors
and timeouts are "failed" with the reason in ``output``), ``output`` (Markdown feedback) and
``visibility``.  Public tests are ``visible``.  Hidden tests are ``after_published``: students
see neither their names nor their feedback while they can still resubmit and tune against
them, and see both once the instructor publishes the grades, when feedback helps them learn.
(``hidden`` would never show them, so a student would never learn why points were lost;
``after_due_date`` shows them to early students while others with extensions still submit.)
The top-level ``score`` counts the hidden tests too; Gradescope's specification ("Controlling
Test Case Visibility") keeps a student's total out of sight while any test is not yet shown, and
not for ``hidden`` tests, which is one more reason no test here is ``hidden``.

What the submission printed is student-controlled text that may carry whatever the process
held in memory, hidden probes included; only the output of a run that held public tests alone
is shown at once (in the top-level ``output``), the rest after publication.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.i18n import _, status_word, test_name
from grader.judge.grading import NOT_GRADED, SYNTAX_ERROR, ExerciseResult, TestResult
from grader.judge.status import PASSED, Status
from grader.publish import gradescope_diagrams as diagrams

VISIBLE, AFTER_PUBLISHED = "visible", "after_published"
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~])")


@dataclass
class Graded:
    """One exercise ready for Gradescope: every test in declaration order, and what the
    submission printed in the run that held only public tests / in the run that held hidden
    ones too."""

    result: ExerciseResult
    visible_stdout: str = ""
    hidden_stdout: str = ""
    drawn: ExerciseResult | None = None  # the public run, whose diagram students see at once
    diagram_format: str = diagrams.SVG
    file: str = ""  # the graded file as named in the submission, for the sentence of a failed import


def merge(public: ExerciseResult, full: ExerciseResult,
          diagram_format: str = diagrams.SVG, file: str = "") -> Graded:
    """Public tests from the public-only run, hidden ones from the full run; the diagram from
    the public run; ``file`` names the graded file as the submission holds it."""
    from_public = {t.name: t for t in public.tests if t.public}
    tests = [from_public.get(t.name, t) if t.public else t for t in full.tests]
    result = ExerciseResult(full.exercise, full.title, tests, notes=public.notes + full.notes,
                            sandbox=full.sandbox, elapsed=public.elapsed + full.elapsed,
                            outcome=full.outcome, untouched_why=full.untouched_why,
                            untouched_parts=full.untouched_parts,
                            flagged=full.flagged or public.flagged)
    return Graded(result, visible_stdout=public.stdout, hidden_stdout=full.stdout,
                  drawn=public, diagram_format=diagram_format, file=file)


def markdown_text(text: str) -> str:
    """Plain text shown literally by a Markdown renderer (student text included)."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


def fenced(text: str) -> str:
    """A code block that no backtick run inside ``text`` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def exercise_number(exercise_id: str) -> int:
    return int(exercise_id[2:])


def _verdict(status: Status) -> str:
    return status_word(status) if status == PASSED else f"**{status_word(status)}**"


def _test_entry(exercise_id: str, index: int, test: TestResult) -> dict[str, Any]:
    output = _verdict(test.status)
    if test.feedback:
        output += ": " + markdown_text(test.feedback)
    kind = "public" if test.public else "hidden"
    label = _("public test") if test.public else _("hidden test")
    return {
        "name": f"{exercise_id}: {test_name(test.name)}",
        "number": f"{exercise_number(exercise_id)}.{index}",
        "score": test.score,
        "max_score": test.max_score,
        "status": "passed" if test.status == PASSED else "failed",
        "output": f"{output}\n\n*{label}*",
        "output_format": "md",
        "tags": [exercise_id, kind],
        "visibility": VISIBLE if test.public else AFTER_PUBLISHED,
    }


def _printed_entry(graded: Graded) -> dict[str, Any]:
    result = graded.result
    return {
        "name": f"{result.exercise}: " + _("your code's output during the hidden tests"),
        "number": f"{exercise_number(result.exercise)}.{len(result.tests) + 2}",
        "score": 0, "max_score": 0, "status": "passed",
        "output": fenced(graded.hidden_stdout), "output_format": "md",
        "tags": [result.exercise, "output"], "visibility": AFTER_PUBLISHED,
    }


def _public_failure(graded: Graded) -> str | None:
    """The sentence for a file that did not import (a syntax error and where), as the public
    run saw it: the full run's import ran beside the hidden tests, so its error message,
    which the submission may write, is not shown before the grades are published."""
    public = graded.drawn
    why = public.import_failure if public is not None else None
    if public is None or why is None:
        return None
    if public.outcome == SYNTAX_ERROR:
        said = _("no test ran: {file} has a syntax error, and no graph was drawn", file=graded.file)
    else:
        said = _("no test ran: {file} did not import, and no graph was drawn", file=graded.file)
    return f"**{markdown_text(said)}**: {markdown_text(why)}"


def _not_graded(graded: Graded, notes: list[str]) -> str | None:
    """Why an exercise was not graded (no file for it in the submission), said once under it,
    as a syntax error is: the tests' rows alone each repeat it, below the summary; a reason
    the notes under the summary already give (a file that is not UTF-8) is not said twice."""
    result = graded.result
    if result.outcome != NOT_GRADED or not result.tests or result.tests[0].feedback in notes:
        return None
    said = _("no test ran: {why}", why=result.tests[0].feedback)
    return f"**{markdown_text(said)}**"


def _summary(graded: list[Graded], notes: list[str]) -> str:
    """The top-level output, visible at once: public results only, and what is to come."""
    lines = ["**" + _("micrograph autograder") + "**", ""]
    if any(g.drawn is not None and g.drawn.diagrams for g in graded):  # said only where one was drawn
        lines += [_("Below each exercise's tests, *the graph your code built* draws the "
                    "computational graph your code made while the public tests ran."), ""]
    for g in graded:
        r = g.result
        public = [t for t in r.tests if t.public]
        hidden = [t for t in r.tests if not t.public]
        line = f"- **{r.exercise}** {markdown_text(_(r.title))}: " + _(
            "public tests {score}", score=f"{sum(t.score for t in public):g}/{sum(t.max_score for t in public):g}")
        if hidden:
            line += _("; {count} hidden tests ({points} points) are graded now and shown when grades "
                      "are published", count=len(hidden), points=f"{sum(t.max_score for t in hidden):g}")
        lines.append(line)
        failure = _public_failure(g) or _not_graded(g, notes)
        if failure is not None:
            lines.append(f"  - {failure}")
    lines += ["", *[f"- {markdown_text(n)}" for n in notes]] if notes else []
    for g in graded:
        if g.visible_stdout.strip():
            lines += ["", f"{g.result.exercise}: " + _("your code's output during the public tests:"),
                      fenced(g.visible_stdout)]
    return "\n".join(lines)


def results(graded: list[Graded], *, execution_time: float, notes: list[str] | None = None,
            extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole results.json for one submission."""
    tests: list[dict[str, Any]] = []
    for g in graded:
        r = g.result
        tests += [_test_entry(r.exercise, i, t) for i, t in enumerate(r.tests, 1)]
        if g.drawn is not None:
            number = f"{exercise_number(r.exercise)}.{len(r.tests) + 1}"
            tests.append(diagrams.entry(g.drawn, number, g.diagram_format))
        if g.hidden_stdout.strip():
            tests.append(_printed_entry(g))
    data: dict[str, Any] = {
        "score": sum(g.result.score for g in graded),
        "execution_time": round(execution_time, 3),
        "output": _summary(graded, notes or []),
        "output_format": "md",
        "test_output_format": "md",
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    flagged = {g.result.exercise: g.result.flagged for g in graded if g.result.flagged}
    if extra is not None or flagged:  # Gradescope keeps extra_data for staff and its API
        data["extra_data"] = {**(extra or {}), **({"flagged": flagged} if flagged else {})}
    shrunk = diagrams.fit(data)
    if shrunk:
        data["output"] += ("\n\nTo keep these results under Gradescope's size limit, the "
                           f"autograder {'; '.join(shrunk)}.")
    return data


def error_results(message: str, execution_time: float) -> dict[str, Any]:
    """results.json when the grader itself failed: zero, and a visible test saying so."""
    text = (_("The autograder itself failed on this submission; this is not your grade. "
              "Your instructor has been told (see the autograder's output).") + "\n\n"
            + markdown_text(message))
    return {
        "score": 0,
        "execution_time": round(execution_time, 3),
        "output": text,
        "output_format": "md",
        "stdout_visibility": "hidden",
        "tests": [{"name": "autograder error", "number": "0.1", "score": 0, "max_score": 0,
                   "status": "failed", "output": text, "output_format": "md",
                   "visibility": VISIBLE}],
    }


def write(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON atomically (a reader sees the old file or the new, never half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, allow_nan=False))  # no indent: C's encoder, not Python's
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
