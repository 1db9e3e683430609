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
from grader.i18n import N_, _, test_name, visibility
from grader.report.svg import esc

SHOWN = 25  # tests listed; the rest are summed up in one sentence
FEEDBACK_CHARS = 300
_DID_NOT_RUN = ((SYNTAX_ERROR, N_("syntax error")), (IMPORT_ERROR, N_("other error on import")),
                (UNTOUCHED, N_("untouched stub")), (TIMED_OUT, N_("timed out")),
                (NOT_GRADED, N_("no file or not gradable")))


def shortened(text: str, limit: int = FEEDBACK_CHARS) -> str:
    """A feedback cut to the table's width after its last whole sentence that ends outside a
    quote, else at a word, and marked "…": cut inside a word or a quoted error, it reads as
    another feedback (an error's text cut before the words that differ reads as PyTorch's)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    ends = [i + 1 for i, c in enumerate(cut) if (c == "\u3002" or cut[i:i + 2] == ". ")
            and cut.count('"', 0, i) % 2 == 0]
    if ends and ends[-1] >= limit // 2:
        return cut[:ends[-1]] + " …"
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"


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
        return f"<p>{esc(_('Every test passed in every submission that ran.'))}</p>"
    lines = ['<p class="muted">' + esc(_("Among the students whose code for the exercise ran (syntax "
                                         "errors, untouched stubs, timeouts and missing files are "
                                         "counted in the next table instead).")) + "</p>",
             "<table class=mis><tr>" + "".join(f"<th>{esc(h)}</th>" for h in (
                 _("exercise"), _("test"), _("failed by"), _("most common feedback"))) + "</tr>"]
    for f in failures[:SHOWN]:
        text, count = f.feedback.most_common(1)[0]
        kind = visibility(f.public)
        same = _("and, by the same students: {tests}", tests=_("; ").join(test_name(t) for t in f.also))
        also = f"<br><span class=muted>{esc(same)}</span>" if f.also else ""
        lines.append(
            f"<tr><td>{esc(f.exercise)}</td><td>{esc(test_name(f.test))} <span class=tag>{esc(kind)}</span>"
            f"{also}</td><td class=share>{_bar(f.students / ran[f.exercise])}<br><span class=muted>"
            f"{esc(_('{count} of {total}', count=f.students, total=ran[f.exercise]))}</span></td>"
            f"<td>{esc(shortened(text))}<br><span class=muted>"
            f"{esc(_('{count} of the {total} got this feedback', count=count, total=f.students))}</span>"
            "</td></tr>")
    lines.append("</table>")
    if len(failures) > SHOWN:
        rest = failures[SHOWN:]
        most = max(r.students / ran[r.exercise] for r in rest)
        lines.append('<p class="muted">' + esc(_(
            "{count} more tests were failed, each by at most {share}% of the students whose code ran.",
            count=len(rest), share=f"{100 * most:.0f}")) + "</p>")
    return "\n".join(lines)


def not_run_html(rows: list[Row], exercises: list[LoadedExercise]) -> str:
    """Per exercise: how many submissions ran, and why the others did not."""
    head = "".join(f"<th>{esc(_(label))}</th>" for _outcome, label in _DID_NOT_RUN)
    lines = [f"<table class=notrun><tr><th>{esc(_('exercise'))}</th><th>{esc(_('ran'))}</th>"
             f"<th>{esc(_('full marks'))}</th>{head}</tr>"]
    for ex in exercises:
        spec = ex.spec
        outcomes = Counter(r.outcomes.get(spec.id, NOT_GRADED) for r in rows)
        full = sum(1 for r in rows if r.scores.get(spec.id, 0) == spec.max_score)
        cells = "".join(f"<td class=n>{outcomes[o] or ''}</td>" for o, _label in _DID_NOT_RUN)
        lines.append(f"<tr><td>{esc(spec.id)} <span class=muted>{esc(_(spec.title))}</span></td>"
                     f"<td class=n>{outcomes[RAN]}</td><td class=n>{full}</td>{cells}</tr>")
    return "\n".join(lines) + "</table>"
