"""OUT/report.html: one self-contained page about a batch, for the instructor.

The class summary comes first: what the class got wrong (the tests most often failed among the
submissions that ran, with their most common feedback), the submissions that never ran (syntax
errors, untouched stubs, timeouts, missing files), the score distribution per exercise (inline
SVG drawn here, only full marks green), a table of students.  Then a section per student with
the feedback of every test they missed, what their code printed and their diagrams inline; an
exercise, or a whole submission, that failed for one reason (an empty folder, a syntax error)
is one line, not a table repeating that sentence per test.

Everything that comes from students (names, file names, feedback quoting their errors, their
output, labels inside their diagrams) is escaped.  Diagrams are parsed and rebuilt from an
allow-list of SVG elements and attributes, so nothing active (scripts, event handlers, links,
external references) can reach the page; identical diagrams (every correct submission draws
the same graph) are stored once as a ``<symbol>`` and shown with ``<use>``, which keeps the page
small for a large class.  The page is written student by student from the files on disk.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import tempfile
from collections import Counter
from pathlib import Path
from typing import IO, Any

from grader.course.batch import STUDENTS
from grader.course.catalog import LoadedExercise
from grader.course.records import RESULTS_NAME, ROW_STATUSES, Row, read_record
from grader.i18n import N_, _, language, outcome_word, status_word, test_name, visibility
from grader.judge.diagram import page_link
from grader.judge.grading import RAN, UNTOUCHED
from grader.judge.status import FAILED, PASSED
from grader.report.histogram import distribution_svg
from grader.report.terminal import UNTOUCHED_SENTENCE
from grader.report.misconceptions import misconceptions_html, not_run_html
from grader.report.svg import esc, sanitize_svg

MAX_SVG_BYTES = 1 << 20

CSS = """
body{font:14px/1.45 system-ui,"Noto Sans CJK SC","Source Han Sans SC","PingFang SC","Microsoft YaHei",sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1,h2,h3{line-height:1.2}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.2em .5em;
text-align:left;vertical-align:top}th{background:#f4f4f4}td.n{text-align:right}
.ok{color:#1a7f37}.timeout{color:#9a6700}.error{color:#cf222e}
.failed,.timeout-t{color:#9a6700}.error-t{color:#cf222e}
pre{background:#f6f8fa;padding:.5em;overflow:auto;max-height:20em;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}section{border-top:1px solid #eee;margin-top:1.5em}
svg.diagram{max-width:100%;height:auto;display:block;margin:.5em 0}.muted{color:#666}
th,.nw{white-space:nowrap}td.s0{background:#fde2e1}td.s1{background:#fff4d6}td.s2{background:#dff5e1}
.bar{display:inline-block;width:120px;height:.8em;background:#eee;margin-right:.4em;
vertical-align:middle}.bar span{display:block;height:100%;background:#cf6f2e}
td.share{white-space:nowrap}.tag{font-size:11px;color:#666;border:1px solid #ccc;
border-radius:3px;padding:0 3px}table.mis{width:100%}table.mis td:nth-child(2){width:28%}
p.one{margin:.3em 0}
table.notrun th{white-space:normal;word-break:keep-all}svg.dist{max-width:100%;height:auto}
div.wide{overflow-x:auto}table.scores{font-size:12px}table.scores td,table.scores th{padding:.15em .3em}
th.ex{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:middle}
"""


def _points(x: float) -> str:
    return f"{x:g}"


# --- diagrams -----------------------------------------------------------------------------


class _Diagrams:
    """Inline diagrams, each distinct one stored once."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[str, str, str]] = {}

    def html(self, path: Path, link: str) -> str:
        try:
            if path.stat().st_size > MAX_SVG_BYTES:
                return (f'<p class="muted">diagram too large to embed: '
                        f'<a href="{esc(link)}">open it</a></p>')
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return '<p class="muted">diagram missing</p>'
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        out = ""
        if digest not in self.seen:
            parts = sanitize_svg(text)
            if parts is None:
                return '<p class="muted">diagram could not be embedded</p>'
            view_box, width, height, inner = parts
            self.seen[digest] = (view_box, width, height)
            out += (f'<svg width="0" height="0" style="position:absolute" aria-hidden="true">'
                    f'<symbol id="d{digest}">{inner}</symbol></svg>')
        view_box, width, height = self.seen[digest]
        return out + (f'<svg class="diagram" viewBox="{esc(view_box)}" width="{esc(width)}" '
                      f'height="{esc(height)}" role="img"><use href="#d{digest}"/></svg>')


# --- the class summary --------------------------------------------------------------------


def _score_class(score: float, max_score: float) -> str:
    return "s2" if score == max_score else "s0" if score == 0 else "s1"


def _index(rows: list[Row], exercises: list[LoadedExercise]) -> str:
    head = "".join(f"<th class=ex>{esc(ex.spec.id)}</th>" for ex in exercises)  # written upwards: a narrow column
    lines = [f"<div class=wide><table class=scores><tr><th>{esc(_('student'))}</th>{head}<th>{esc(_('total'))}</th>"
             f"<th>{esc(_('status'))}</th></tr>"]
    total_max = sum(ex.spec.max_score for ex in exercises)
    for row in rows:
        cells = "".join(
            f'<td class="n {_score_class(row.scores.get(ex.spec.id, 0), ex.spec.max_score)}">'
            f"{_points(row.scores.get(ex.spec.id, 0))}</td>" for ex in exercises)
        lines.append(f'<tr><td><a href="#s-{esc(row.slug)}">{esc(row.student)}</a></td>{cells}'
                     f'<td class=n>{_points(row.total)}/{_points(total_max)}</td>'
                     f'<td class="{esc(row.status)} nw">{esc(status_word(row.status))}</td></tr>')
    return "\n".join(lines) + "</table></div>"


# --- a student ----------------------------------------------------------------------------


def _one_reason(exercise: dict[str, Any]) -> str | None:
    """The single sentence every test of an exercise that never ran got, if there is one."""
    if exercise["outcome"] == RAN or exercise["score"] != 0:
        return None
    if exercise["outcome"] == UNTOUCHED:
        return exercise.get("untouched_why") or _(UNTOUCHED_SENTENCE)
    reasons = {t["feedback"] for t in exercise["tests"] if t["status"] != PASSED}
    return reasons.pop() if len(reasons) == 1 else None


def _one_line(name: str, score: str, outcome: str, reason: str) -> str:
    """An exercise (or exercises) that failed for one reason, in one line (``name`` is HTML)."""
    return _("{name}: {points}, {outcome}: {reason}", name=name, points=score,
             outcome=esc(outcome_word(outcome)), reason=esc(reason))


def _exercise_html(exercise: dict[str, Any], folder: Path, slug: str, diagrams: _Diagrams) -> str:
    reason = _one_reason(exercise)
    name = f"<b>{esc(exercise['exercise'])}</b> {esc(_(exercise['title']))}"
    score = f"{_points(exercise['score'])}/{_points(exercise['max_score'])}"
    if reason is not None:
        return f'<p class="one">{_one_line(name, score, exercise["outcome"], reason)}</p>'
    full = exercise["score"] == exercise["max_score"]
    missed = [t for t in exercise["tests"] if t["status"] != PASSED]
    passed = len(exercise["tests"]) - len(missed)
    parts = [f"<details{'' if full else ' open'}><summary>"
             f"{_('{name}: {points}', name=name, points=score)}</summary>",
             f'<p class="muted">{esc(_("{passed} of {count} tests passed", passed=passed, count=len(exercise["tests"])))}</p>']
    if missed:  # only what went wrong: the page stays readable for a large class
        parts.append("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in (
            _("test"), "", _("points"), _("status"), _("feedback"))) + "</tr>")
        for t in missed:
            status = t["status"]
            css = status if status == FAILED else f"{status}-t"
            parts.append(f"<tr><td>{esc(test_name(t['name']))}</td><td class=nw>"
                         f"{esc(visibility(t['public']))}</td><td class=n>"
                         f"{_points(t['score'])}/{_points(t['max_score'])}</td>"
                         f'<td class="{esc(css)} nw">{esc(status_word(status))}</td><td>{esc(t["feedback"])}'
                         "</td></tr>")
        parts.append("</table>")
    parts += [f'<p class="muted">{esc(note)}</p>' for note in exercise["notes"]]
    if exercise["stdout"].strip():
        lines, dropped = exercise["stdout_lines"], exercise["stdout_dropped"]
        cut = _(", of which the grader dropped {count} bytes past its cap", count=dropped) if dropped else ""
        said = _.n("output, {count} line{cut}:", "output, {count} lines{cut}:", lines, count=lines, cut=cut)
        parts.append(f"<p>{esc(said)}</p>"
                     f"<pre>{esc(exercise['stdout'])}</pre>")
    for relative in exercise["diagrams"]:
        if relative.endswith(".svg"):
            parts.append(diagrams.html(folder / relative, f"{STUDENTS}/{slug}/{relative}"))
        elif relative.endswith(".html"):  # a backward run, step by step
            parts.append(f'<p><a href="{esc(f"{STUDENTS}/{slug}/{relative}")}">'
                         f'{esc(page_link(relative))}</a></p>')
    parts.append("</details>")
    return "\n".join(parts)


def _student_html(row: Row, out: Path, diagrams: _Diagrams) -> str:
    folder = out / STUDENTS / row.slug
    record = read_record(folder)
    status = f'<span class="{esc(row.status)}">{esc(status_word(row.status))}</span>'
    head = (f'<section id="s-{esc(row.slug)}"><h3>'
            f'{_("{name}: {points}", name=esc(row.student), points=_points(row.total))}</h3><p>'
            + (_("{status}: {detail}", status=status, detail=esc(row.detail)) if row.detail else status)
            + "</p>")
    if record is None:
        return head + f"<p>{esc(_('missing {path}', path=f'{STUDENTS}/{row.slug}/{RESULTS_NAME}'))}</p></section>"
    reasons = {_one_reason(e) for e in record["exercises"]}
    if len(reasons) == 1 and None not in reasons:  # one sentence for the whole submission
        reason = reasons.pop()
        if reason != row.detail:
            head += f'<p class="one">{esc(_("Every exercise scores 0: {why}.", why=reason))}</p>'
        return head + "</section>"
    return head + "\n".join(_exercises_html(record["exercises"], folder, row.slug, diagrams)) + "</section>"


def _exercises_html(exercises: list[dict[str, Any]], folder: Path, slug: str,
                    diagrams: _Diagrams) -> list[str]:
    """Each exercise's part of a student's section; exercises that never ran for the same
    reason (not in a single file handed in, untouched stubs) are one line together."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for exercise in exercises:
        reason = _one_reason(exercise)
        if reason is not None:
            groups.setdefault((exercise["outcome"], reason), []).append(exercise)
    body, said = [], set()
    for exercise in exercises:
        reason = _one_reason(exercise)
        key = (exercise["outcome"], reason or "")
        if reason is None or len(groups[key]) == 1:
            body.append(_exercise_html(exercise, folder, slug, diagrams))
        elif key not in said:
            said.add(key)
            together = groups[key]
            names = f'<b>{esc(", ".join(e["exercise"] for e in together))}</b>'
            score = (f'{_points(sum(e["score"] for e in together))}/'
                     f'{_points(sum(e["max_score"] for e in together))}')
            body.append(f'<p class="one">{_one_line(names, score, exercise["outcome"], reason)}</p>')
    return body


# --- the page -----------------------------------------------------------------------------


def _write(handle: IO[str], rows: list[Row], exercises: list[LoadedExercise], out: Path,
           title: str) -> None:
    statuses = Counter(row.status for row in rows)
    totals = [row.total for row in rows]
    total_max = sum(ex.spec.max_score for ex in exercises)
    handle.write(f'<!doctype html>\n<html lang="{"zh-CN" if language() == "zh" else "en"}"><head><meta charset="utf-8">'
                 f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
                 f"<h1>{esc(title)}</h1>\n")
    summary = _(", ").join(f"{statuses[s]} {status_word(s)}" for s in ROW_STATUSES)
    median = statistics.median(totals) if totals else 0
    mean = statistics.fmean(totals) if totals else 0
    handle.write("<p>" + esc(_("{count} students ({summary}); total out of {max}: mean {mean}, median {median}.",
                                count=len(rows), summary=summary, max=_points(total_max),
                                mean=f"{mean:.1f}", median=_points(median))) + "</p>\n")
    columns = [(f"{ex.spec.id}", ex.spec.max_score, [r.scores.get(ex.spec.id, 0) for r in rows])
               for ex in exercises]
    columns.append((_("total"), total_max, totals))
    handle.write(f"<h2>{esc(_('What the class got wrong'))}</h2>\n" + misconceptions_html(rows, exercises)
                 + f"\n<h2>{esc(_('Submissions that did not run'))}</h2>\n" + not_run_html(rows, exercises)
                 + f"\n<h2>{esc(_('Score distribution'))}</h2>\n<p class=muted>{esc(_('Green: full marks only.'))}</p>\n"
                 + distribution_svg(columns) + "\n")
    handle.write(f"<h2>{esc(_('Students'))}</h2>\n" + _index(rows, exercises) + "\n")
    diagrams = _Diagrams()
    for row in rows:
        handle.write(_student_html(row, out, diagrams) + "\n")
    handle.write("</body></html>\n")


def write_report(path: Path, rows: list[Row], exercises: list[LoadedExercise], out: Path,
                 title: str = N_("micrograph: batch report")) -> None:
    """Write the page atomically."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
            _write(handle, rows, exercises, out, _(title))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
