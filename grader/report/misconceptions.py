"""What the class got wrong, for the instructor at a glance: the tests most often failed among
the submissions that ran, and, apart, the submissions that never ran.

A test's share is counted among the students whose code for that exercise *ran* (it imported,
did not time out and was not the untouched stub): one student's SyntaxError, a few untouched
stubs or a missing file would otherwise fill the top of the table with every test of their
exercise and hide the misconceptions.  Those are counted per exercise in a table of their own.
Each test shows its most common feedback and how many of the students who failed it got it;
tests of one exercise failed by exactly the same students (one misconception failing several
tests) share a row.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from grader.course.catalog import LoadedExercise
from grader.course.records import Row
from grader.judge.grading import (
    IMPORT_ERROR,
    NOT_GRADED,
    RAN,
    SYNTAX_ERROR,
    TIMED_OUT,
    UNTOUCHED,
)
from grader.report.svg import esc

SHOWN = 25  # tests listed; the rest are summed up in one sentence
FEEDBACK_CHARS = 300
_DID_NOT_RUN = ((SYNTAX_ERROR, "syntax error"), (IMPORT_ERROR, "other error on import"),
                (UNTOUCHED, "untouched stub"), (TIMED_OUT, "timed out"),
                (NOT_GRADED, "no file or not gradable"))


@dataclass
class _Failure:
    exercise: str
    test: str
    public: bool
    who: set[str] = field(default_factory=set)
    feedback: Counter[str] = field(default_factory=Counter)
    also: list[str] = field(default_factory=list)  # tests failed by exactly the same students

    @property
    def students(self) -> int:
        return len(self.who)


def _failures(rows: list[Row]) -> list[_Failure]:
    found: dict[tuple[str, str], _Failure] = {}
    for row in rows:
        for exercise, name, public, text in row.failed:
            failure = found.setdefault((exercise, name), _Failure(exercise, name, public))
            failure.who.add(row.slug)
            failure.feedback[text] += 1
    merged: dict[tuple[str, frozenset[str]], _Failure] = {}
    for failure in found.values():
        first = merged.setdefault((failure.exercise, frozenset(failure.who)), failure)
        if first is not failure:
            first.also.append(failure.test)
    return list(merged.values())


def _bar(share: float) -> str:
    width = round(120 * share)
    return (f'<span class="bar"><span style="width:{width}px"></span></span>'
            f"{100 * share:.0f}%")


def misconceptions_html(rows: list[Row], exercises: list[LoadedExercise]) -> str:
    ran = {ex.spec.id: sum(1 for r in rows if r.outcomes.get(ex.spec.id) == RAN)
           for ex in exercises}
    failures = sorted(_failures(rows), key=lambda f: (-f.students / ran[f.exercise],
                                                      f.exercise, f.test))
    if not failures:
        return "<p>Every test passed in every submission that ran.</p>"
    lines = ['<p class="muted">Among the students whose code for the exercise ran (syntax '
             "errors, untouched stubs, timeouts and missing files are counted in the next "
             "table instead).</p>",
             "<table class=mis><tr><th>exercise</th><th>test</th><th>failed by</th>"
             "<th>most common feedback</th></tr>"]
    for f in failures[:SHOWN]:
        text, count = f.feedback.most_common(1)[0]
        kind = "public" if f.public else "hidden"
        also = (f'<br><span class=muted>and, by the same students: {esc("; ".join(f.also))}'
                "</span>" if f.also else "")
        lines.append(
            f"<tr><td>{esc(f.exercise)}</td><td>{esc(f.test)} <span class=tag>{kind}</span>"
            f"{also}</td><td class=share>{_bar(f.students / ran[f.exercise])}<br><span class=muted>"
            f"{f.students} of {ran[f.exercise]}</span></td><td>{esc(text[:FEEDBACK_CHARS])}"
            f"<br><span class=muted>{count} of the {f.students} got this feedback</span>"
            "</td></tr>")
    lines.append("</table>")
    if len(failures) > SHOWN:
        rest = failures[SHOWN:]
        most = max(r.students / ran[r.exercise] for r in rest)
        lines.append(f'<p class="muted">{len(rest)} more tests were failed, each by at most '
                     f"{100 * most:.0f}% of the students whose code ran.</p>")
    return "\n".join(lines)


def not_run_html(rows: list[Row], exercises: list[LoadedExercise]) -> str:
    """Per exercise: how many submissions ran, and why the others did not."""
    head = "".join(f"<th>{esc(label)}</th>" for _, label in _DID_NOT_RUN)
    lines = [f"<table class=notrun><tr><th>exercise</th><th>ran</th><th>full marks</th>{head}"
             "</tr>"]
    for ex in exercises:
        spec = ex.spec
        outcomes = Counter(r.outcomes.get(spec.id, NOT_GRADED) for r in rows)
        full = sum(1 for r in rows if r.scores.get(spec.id, 0) == spec.max_score)
        cells = "".join(f"<td class=n>{outcomes[o] or ''}</td>" for o, _ in _DID_NOT_RUN)
        lines.append(f"<tr><td>{esc(spec.id)} <span class=muted>{esc(spec.title)}</span></td>"
                     f"<td class=n>{outcomes[RAN]}</td><td class=n>{full}</td>{cells}</tr>")
    return "\n".join(lines) + "</table>"
