"""OUT/report.html: one self-contained page about a batch, for the instructor.

The class summary comes first (score distribution per exercise as an inline SVG drawn here, the
tests most often failed, a table of students), then a section per student with their feedback,
what their code printed and their diagrams inline.

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

from grader.course.batch import RESULTS_NAME, Row, read_record
from grader.course.catalog import LoadedExercise
from grader.report.svg import esc, sanitize_svg

MAX_SVG_BYTES = 1 << 20

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1,h2,h3{line-height:1.2}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.2em .5em;
text-align:left;vertical-align:top}th{background:#f4f4f4}td.n{text-align:right}
.ok{color:#1a7f37}.timeout{color:#9a6700}.error{color:#cf222e}
.failed,.timeout-t{color:#9a6700}.error-t{color:#cf222e}
pre{background:#f6f8fa;padding:.5em;overflow:auto;max-height:20em;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}section{border-top:1px solid #eee;margin-top:1.5em}
svg.diagram{max-width:100%;height:auto;display:block;margin:.5em 0}.muted{color:#666}
td.s0{background:#fde2e1}td.s1{background:#fff4d6}td.s2{background:#dff5e1}
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


def _bins(scores: list[float], max_score: float) -> tuple[list[tuple[str, int]], bool]:
    """((label, count) bars, whether each bar is one score): one bar per score when scores
    are whole and few, else ten equal ranges."""
    whole = all(float(s).is_integer() for s in [*scores, max_score])
    if max_score <= 20 and whole:
        return [(_points(v), sum(1 for s in scores if s == v))
                for v in range(int(max_score) + 1)], True
    width = max_score / 10 or 1
    counts = Counter(min(int(s / width), 9) for s in scores)
    return [(f"{i * width:.3g} to {(i + 1) * width:.3g}", counts[i]) for i in range(10)], False


def distribution_svg(columns: list[tuple[str, float, list[float]]]) -> str:
    """Small multiples: a histogram of scores per (label, max score, scores)."""
    panel_w, panel_h, per_row = 250, 150, 4
    plot_x, plot_y, plot_w, plot_h = 28, 24, 212, 96
    rows, cols = (len(columns) + per_row - 1) // per_row, min(len(columns), per_row)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{panel_w * cols}" '
             f'height="{panel_h * rows}" viewBox="0 0 {panel_w * cols} {panel_h * rows}" '
             'font-family="sans-serif" font-size="11" role="img">']
    for index, (label, max_score, scores) in enumerate(columns):
        x0, y0 = (index % per_row) * panel_w, (index // per_row) * panel_h
        bins, single = _bins(scores, max_score)
        tallest = max((c for _, c in bins), default=0) or 1
        mean = statistics.fmean(scores) if scores else 0.0
        parts.append(f'<text x="{x0 + plot_x}" y="{y0 + 14}" font-weight="bold">{esc(label)}'
                     f'</text><text x="{x0 + panel_w - 12}" y="{y0 + 14}" text-anchor="end" '
                     f'fill="#555">mean {mean:.1f} / {_points(max_score)}</text>')
        bar_w = plot_w / len(bins)
        for i, (tick, count) in enumerate(bins):
            h = plot_h * count / tallest
            bx, by = x0 + plot_x + i * bar_w, y0 + plot_y + plot_h - h
            fill = "#1a7f37" if i == len(bins) - 1 else "#4c8eda"
            parts.append(f'<rect x="{bx + 1:.1f}" y="{by:.1f}" width="{max(bar_w - 2, 1):.1f}" '
                         f'height="{h:.1f}" fill="{fill}"><title>{esc(tick)}: {count}</title>'
                         "</rect>")
            if single and i in (0, len(bins) // 2, len(bins) - 1):
                parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{y0 + plot_y + plot_h + 13}" '
                             f'text-anchor="middle" fill="#555">{esc(tick)}</text>')
        if not single:
            for fraction, anchor in ((0, "start"), (0.5, "middle"), (1, "end")):
                parts.append(f'<text x="{x0 + plot_x + fraction * plot_w:.1f}" '
                             f'y="{y0 + plot_y + plot_h + 13}" text-anchor="{anchor}" '
                             f'fill="#555">{_points(round(fraction * max_score, 1))}</text>')
        parts.append(f'<line x1="{x0 + plot_x}" y1="{y0 + plot_y + plot_h}" '
                     f'x2="{x0 + plot_x + plot_w}" y2="{y0 + plot_y + plot_h}" stroke="#999"/>'
                     f'<text x="{x0 + plot_x - 4}" y="{y0 + plot_y + 8}" text-anchor="end" '
                     f'fill="#555">{tallest}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _most_failed(rows: list[Row], limit: int = 20) -> str:
    failures: Counter[tuple[str, str, bool]] = Counter()
    feedback: dict[tuple[str, str, bool], Counter[str]] = {}
    for row in rows:
        for exercise, name, public, text in row.failed:
            key = (exercise, name, public)
            failures[key] += 1
            feedback.setdefault(key, Counter())[text] += 1
    if not failures:
        return "<p>No test failed.</p>"
    lines = ["<table><tr><th>exercise</th><th>test</th><th></th><th>students</th>"
             "<th>most common feedback</th></tr>"]
    for key, count in failures.most_common(limit):
        exercise, name, public = key
        common = feedback[key].most_common(1)[0][0]
        lines.append(f"<tr><td>{esc(exercise)}</td><td>{esc(name)}</td>"
                     f"<td>{'public' if public else 'hidden'}</td><td class=n>{count} "
                     f"({100 * count / len(rows):.0f}%)</td><td>{esc(common[:300])}</td></tr>")
    return "\n".join(lines) + "</table>"


def _score_class(score: float, max_score: float) -> str:
    return "s2" if score == max_score else "s0" if score == 0 else "s1"


def _index(rows: list[Row], exercises: list[LoadedExercise]) -> str:
    head = "".join(f"<th>{esc(ex.spec.id)}</th>" for ex in exercises)
    lines = [f"<table><tr><th>student</th>{head}<th>total</th><th>status</th></tr>"]
    total_max = sum(ex.spec.max_score for ex in exercises)
    for row in rows:
        cells = "".join(
            f'<td class="n {_score_class(row.scores.get(ex.spec.id, 0), ex.spec.max_score)}">'
            f"{_points(row.scores.get(ex.spec.id, 0))}</td>" for ex in exercises)
        lines.append(f'<tr><td><a href="#s-{esc(row.slug)}">{esc(row.student)}</a></td>{cells}'
                     f'<td class=n>{_points(row.total)}/{_points(total_max)}</td>'
                     f'<td class="{esc(row.status)}">{esc(row.status)}</td></tr>')
    return "\n".join(lines) + "</table>"


# --- a student ----------------------------------------------------------------------------


def _exercise_html(exercise: dict[str, Any], folder: Path, slug: str, diagrams: _Diagrams) -> str:
    full = exercise["score"] == exercise["max_score"]
    missed = [t for t in exercise["tests"] if t["status"] != "passed"]
    passed = len(exercise["tests"]) - len(missed)
    parts = [f"<details{'' if full else ' open'}><summary><b>{esc(exercise['exercise'])}</b> "
             f"{esc(exercise['title'])}: {_points(exercise['score'])}/"
             f"{_points(exercise['max_score'])}</summary>",
             f'<p class="muted">{passed} of {len(exercise["tests"])} tests passed</p>']
    if missed:  # only what went wrong: the page stays readable for a large class
        parts.append("<table><tr><th>test</th><th></th><th>points</th><th>status</th>"
                     "<th>feedback</th></tr>")
        for t in missed:
            status = t["status"]
            css = status if status == "failed" else f"{status}-t"
            parts.append(f"<tr><td>{esc(t['name'])}</td><td>"
                         f"{'public' if t['public'] else 'hidden'}</td><td class=n>"
                         f"{_points(t['score'])}/{_points(t['max_score'])}</td>"
                         f'<td class="{esc(css)}">{esc(status)}</td><td>{esc(t["feedback"])}'
                         "</td></tr>")
        parts.append("</table>")
    parts += [f'<p class="muted">{esc(note)}</p>' for note in exercise["notes"]]
    if exercise["stdout"].strip():
        parts.append(f"<p>printed:</p><pre>{esc(exercise['stdout'])}</pre>")
    for relative in exercise["diagrams"]:
        if relative.endswith(".svg"):
            parts.append(diagrams.html(folder / relative, f"{slug}/{relative}"))
    parts.append("</details>")
    return "\n".join(parts)


def _student_html(row: Row, out: Path, diagrams: _Diagrams) -> str:
    folder = out / row.slug
    record = read_record(folder)
    head = (f'<section id="s-{esc(row.slug)}"><h3>{esc(row.student)}: {_points(row.total)}'
            f'</h3><p><span class="{esc(row.status)}">{esc(row.status)}</span>'
            + (f": {esc(row.detail)}" if row.detail else "") + "</p>")
    if record is None:
        return head + f"<p>missing {esc(row.slug)}/{RESULTS_NAME}</p></section>"
    body = [_exercise_html(e, folder, row.slug, diagrams) for e in record["exercises"]]
    return head + "\n".join(body) + "</section>"


# --- the page -----------------------------------------------------------------------------


def _write(handle: IO[str], rows: list[Row], exercises: list[LoadedExercise], out: Path,
           title: str) -> None:
    statuses = Counter(row.status for row in rows)
    totals = [row.total for row in rows]
    total_max = sum(ex.spec.max_score for ex in exercises)
    handle.write(f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                 f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
                 f"<h1>{esc(title)}</h1>\n")
    summary = ", ".join(f"{statuses[s]} {s}" for s in ("ok", "timeout", "error"))
    median = statistics.median(totals) if totals else 0
    mean = statistics.fmean(totals) if totals else 0
    handle.write(f"<p>{len(rows)} students ({summary}); total out of {_points(total_max)}: "
                 f"mean {mean:.1f}, median {_points(median)}.</p>\n")
    columns = [(f"{ex.spec.id}", ex.spec.max_score, [r.scores.get(ex.spec.id, 0) for r in rows])
               for ex in exercises]
    columns.append(("total", total_max, totals))
    handle.write("<h2>Score distribution</h2>\n" + distribution_svg(columns) + "\n")
    handle.write("<h2>Tests most often failed</h2>\n" + _most_failed(rows) + "\n")
    handle.write("<h2>Students</h2>\n" + _index(rows, exercises) + "\n")
    diagrams = _Diagrams()
    for row in rows:
        handle.write(_student_html(row, out, diagrams) + "\n")
    handle.write("</body></html>\n")


def write_report(path: Path, rows: list[Row], exercises: list[LoadedExercise], out: Path,
                 title: str = "micrograph: batch report") -> None:
    """Write the page atomically."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
            _write(handle, rows, exercises, out, title)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
