"""The graph each submission built, on Gradescope: one test per exercise whose ``output`` is
HTML (``output_format: "html"``), and a cap that keeps ``results.json`` under Gradescope's size
limit.

The diagram is drawn from the *public* run (the child that held public tests only), so it is
``visible`` at once like the public tests: nothing in it can come from a hidden probe.  It is
embedded as sanitised inline SVG (``grader.report.svg``: rebuilt from an allow-list, every
label escaped), or, for a course whose Gradescope strips inline SVG, as a PNG data URI
(``grade gradescope --diagrams png``).  A diagram over ``DIAGRAM_LIMIT`` is left out with a
sentence saying so, and ``fit`` drops the largest diagrams first, then shortens the longest
outputs, until the whole file is under ``RESULTS_LIMIT``.
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

from grader.judge.grading import ExerciseResult
from grader.report.svg import standalone

SVG, PNG = "svg", "png"
FORMATS = (SVG, PNG)
RESULTS_LIMIT = 1_000_000  # Gradescope refuses a results.json over 1 MB
SAFETY = 50_000  # room for what JSON escaping and Gradescope's own fields add
DIAGRAM_LIMIT = 250_000  # one diagram's HTML; bigger graphs are left out with a note
SHORTENED = 2_000  # what is kept of an output shortened to fit
_STYLE = "font-family:sans-serif;font-size:14px"


def _picture(paths: list[str], fmt: str) -> tuple[str | None, str | None]:
    """(HTML of the picture, or None; why it is missing, or None)."""
    wanted = [p for p in paths if p.endswith(f".{fmt}")]
    if not wanted:
        return None, None
    path = Path(wanted[0])
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"The diagram could not be read ({exc.strerror})."
    if fmt == PNG:
        picture = ('<img alt="the computational graph your code built" style="max-width:100%" '
                   f'src="data:image/png;base64,{base64.b64encode(data).decode()}">')
    else:
        picture = standalone(data.decode("utf-8", "replace"))
        if picture is None:
            return None, "The diagram is not plain SVG, so it is not shown."
    if len(picture) > DIAGRAM_LIMIT:
        return None, (f"The diagram ({len(picture) // 1000} kB) is too large to show here "
                      f"(the limit is {DIAGRAM_LIMIT // 1000} kB per diagram).")
    return picture, None


def drew(result: ExerciseResult) -> bool:
    """Whether the code built a whole graph that was drawn: a missing one (a syntax error, an
    untouched stub, a crash) must not show as a green "passed" row."""
    return bool(result.diagrams) and result.diagram_problem is None


def entry(result: ExerciseResult, number: str, fmt: str = SVG) -> dict[str, Any]:
    """The test that shows ``result``'s diagram (from the public run): visible, 0 points,
    "failed" when no whole graph was drawn (the sentence says why)."""
    picture, problem = _picture(result.diagrams, fmt)
    notes = [n for n in result.notes if "diagram" in n]
    parts = [f'<div class="micrograph-diagram" style="{_STYLE}">']
    if picture:
        parts += [f"<p>The computational graph your code built for "
                  f"{html.escape(result.exercise)} while the public tests ran; the legend says "
                  "what each colour means.</p>", picture]
    parts += [f"<p><em>{html.escape(text)}</em></p>" for text in [problem, *notes] if text]
    if not picture and not problem and not notes:
        parts.append("<p><em>No diagram was drawn.</em></p>")
    parts.append("</div>")
    return {
        "name": f"{result.exercise}: the graph your code built",
        "number": number, "score": 0, "max_score": 0,
        "status": "passed" if drew(result) else "failed",
        "output": "\n".join(parts), "output_format": "html",
        "tags": [result.exercise, "diagram"], "visibility": "visible",
    }


def _size(data: dict[str, Any]) -> int:
    """The bytes of ``data`` as ``gradescope_results.write`` writes it."""
    return len(json.dumps(data, allow_nan=False).encode("utf-8"))


def fit(data: dict[str, Any], limit: int = RESULTS_LIMIT - SAFETY) -> list[str]:
    """Shrink ``data`` (a whole results.json) in place until it is under ``limit`` bytes:
    the largest diagrams give way first, then the longest outputs; returns what was done."""
    done: list[str] = []
    tests = data.get("tests", [])
    diagrams = sorted((t for t in tests if "diagram" in t.get("tags", ())),
                      key=lambda t: len(t["output"]), reverse=True)
    size = _size(data)
    for test in diagrams:
        if size <= limit:
            return done
        test["output"] = ("<p><em>This diagram was left out to keep the results under "
                          f"Gradescope's limit of {RESULTS_LIMIT // 1_000_000} MB.</em></p>")
        done.append(f"left out the diagram of {test['tags'][0]}")
        size = _size(data)
    for holder in sorted([data, *tests], key=lambda t: len(t.get("output", "")), reverse=True):
        if size <= limit:
            break
        dropped = len(holder["output"].encode("utf-8")) - SHORTENED
        holder["output"] = (holder["output"][:SHORTENED] + "\n\n(shortened: "
                            f"{dropped} more bytes left out to stay under Gradescope's limit)")
        done.append(f"shortened {holder.get('name', 'the summary')}")
        size = _size(data)
    return done
