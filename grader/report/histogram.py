"""Score distributions as small-multiple histograms, drawn as inline SVG (no library, no
script): one panel per exercise and one for the total.

Only true full marks are green: when scores are few and whole, each bar is one score and the
last one is the maximum; otherwise the scores below the maximum fall into ten equal ranges and
full marks get a bar of their own, so a student at 156/173 is never counted as full marks.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from grader.i18n import _
from grader.report.svg import esc

FULL, OTHER = "#1a7f37", "#4c8eda"
PANEL_W, PANEL_H, PER_ROW = 250, 150, 4
PLOT_X, PLOT_Y, PLOT_W, PLOT_H = 28, 24, 212, 96


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    full_marks: bool


def _points(x: float) -> str:
    return f"{x:g}"


def bars(scores: list[float], max_score: float) -> tuple[list[Bar], bool]:
    """(bars, whether each bar is one score)."""
    whole = all(float(s).is_integer() for s in [*scores, max_score])
    if max_score <= 20 and whole:
        return [Bar(_points(v), sum(1 for s in scores if s == v), v == max_score)
                for v in range(int(max_score) + 1)], True
    width = max_score / 10 or 1
    below = Counter(min(int(s / width), 9) for s in scores if s < max_score)
    ranges = [Bar(_("{low} to under {high}", low=f"{i * width:.3g}", high=f"{(i + 1) * width:.3g}"), below[i], False)
              for i in range(10)]
    full = sum(1 for s in scores if s >= max_score)
    return [*ranges, Bar(_("full marks ({points})", points=_points(max_score)), full, True)], False


def _panel(index: int, label: str, max_score: float, scores: list[float]) -> list[str]:
    x0, y0 = (index % PER_ROW) * PANEL_W, (index // PER_ROW) * PANEL_H
    drawn, single = bars(scores, max_score)
    tallest = max((b.count for b in drawn), default=0) or 1
    mean = statistics.fmean(scores) if scores else 0.0
    parts = [f'<text x="{x0 + PLOT_X}" y="{y0 + 14}" font-weight="bold">{esc(label)}</text>'
             f'<text x="{x0 + PANEL_W - 12}" y="{y0 + 14}" text-anchor="end" fill="#555">'
             f"{esc(_('mean {mean} / {max}', mean=f'{mean:.1f}', max=_points(max_score)))}</text>"]
    bar_w = PLOT_W / len(drawn)
    base = y0 + PLOT_Y + PLOT_H
    for i, bar in enumerate(drawn):
        h = PLOT_H * bar.count / tallest
        bx = x0 + PLOT_X + i * bar_w + (3 if bar.full_marks and not single else 0)
        parts.append(f'<rect x="{bx + 1:.1f}" y="{base - h:.1f}" width="{max(bar_w - 2, 1):.1f}" '
                     f'height="{h:.1f}" fill="{FULL if bar.full_marks else OTHER}">'
                     f"<title>{esc(bar.label)}: {bar.count}</title></rect>")
        if single and i in (0, len(drawn) // 2, len(drawn) - 1):
            parts.append(f'<text x="{bx + bar_w / 2:.1f}" y="{base + 13}" text-anchor="middle" '
                         f'fill="#555">{esc(bar.label)}</text>')
    if not single:
        for fraction, anchor, text in ((0, "start", "0"),
                                       (10 / 11, "end", _points(max_score)),
                                       (1, "end", esc(_("full")))):
            parts.append(f'<text x="{x0 + PLOT_X + fraction * PLOT_W:.1f}" y="{base + 13}" '
                         f'text-anchor="{anchor}" fill="#555">{text}</text>')
    parts.append(f'<line x1="{x0 + PLOT_X}" y1="{base}" x2="{x0 + PLOT_X + PLOT_W}" y2="{base}" '
                 f'stroke="#999"/><text x="{x0 + PLOT_X - 4}" y="{y0 + PLOT_Y + 8}" '
                 f'text-anchor="end" fill="#555">{tallest}</text>')
    return parts


def distribution_svg(columns: list[tuple[str, float, list[float]]]) -> str:
    """Small multiples: a histogram of scores per (label, max score, scores)."""
    rows, cols = (len(columns) + PER_ROW - 1) // PER_ROW, min(len(columns), PER_ROW)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dist" width="{PANEL_W * cols}" '
             f'height="{PANEL_H * rows}" viewBox="0 0 {PANEL_W * cols} {PANEL_H * rows}" '
             'font-family="sans-serif" font-size="11" role="img">']
    for index, (label, max_score, scores) in enumerate(columns):
        parts += _panel(index, label, max_score, scores)
    parts.append("</svg>")
    return "".join(parts)
