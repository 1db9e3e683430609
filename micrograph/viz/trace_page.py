"""The backward trace as one self-contained HTML page: the diagram, replayed step by step.

The graph is drawn once, by the same DOT builder and renderer as every other
diagram (``dot.build`` + ``render.run``: leaves at the bottom, the documents'
direction), and embedded as inline SVG.  ``trace_page.js`` then finds the
nodes and edges by the ids ``graph_json`` gave them (each SVG group's
``<title>``) and, for the step chosen, highlights the running node, writes the
gradients on the edges they flowed along, fills the ``grad`` lines that were
written and greys out the saved values that were freed; the side panel shows
the ready queue and the dependency counts.  Nothing is fetched: the CSS, the
script and the data are inline, the data as JSON that cannot close its
``<script>`` element, and every text from the data is set with ``textContent``.

Every word the page shows is in the language of the run (``micrograph.i18n``): the
page's own headings and buttons are translated here, and the sentences the script
builds are the templates of ``SENTENCES``, translated here and filled in by the script
(``{name}`` fields, as in the catalogue).  The engine's error texts stay PyTorch's.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

from micrograph.i18n import N_, language
from micrograph.viz import dot, render, schema
from micrograph.viz.labels import _

MAX_PAGE_STEPS = 2_000  # a longer trace shows its first steps and says how many there were
IFRAME_HEIGHT = 640
SVG_TIMEOUT = 30.0


def page(data: dict[str, Any], title: str, timeout: float = SVG_TIMEOUT) -> str:
    """The HTML page for a trace's ``data`` (see ``trace_record.BackwardTrace``)."""
    graph = schema.validate(data["graph"])
    svg, problem = _svg(graph, data["steps"], timeout)
    payload = {
        "pass": data["pass"], "nodes": data["nodes"], "steps": data["steps"][:MAX_PAGE_STEPS],
        "total": data.get("steps_total", len(data["steps"])), "error": data["error"],
        "initial": {n.id: _grad_line(n.grad) for n in graph.nodes if isinstance(n, schema.ValueNode)},
        "data": {n.id: _json_number(n.data) for n in graph.nodes if isinstance(n, schema.ValueNode)},
        "problem": problem, "say": {key: _(text) for key, text in SENTENCES.items()},
    }
    text = json.dumps(payload, allow_nan=False, ensure_ascii=False).replace("<", "\\u003c")
    words = {key: html.escape(_(text)) for key, text in PAGE_WORDS.items()}
    return _TEMPLATE.format(
        title=html.escape(_(title)), css=_asset("trace_page.css"), svg=svg, data=text, js=_asset("trace_page.js"),
        lang="zh-CN" if language() == "zh" else "en", **words,
    )


def save(data: dict[str, Any], path: str | Path, title: str, timeout: float = SVG_TIMEOUT) -> Path:
    """Write the page for a trace's ``data`` to ``path`` (folders made as needed); the path written."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page(data, title, timeout), encoding="utf-8")
    return out


PAGE_WORDS = {  # the page's fixed words, by their place in _TEMPLATE
    "steps": N_("steps"), "step": N_("step"),
    "prev_tip": N_("previous step (left arrow)"), "prev": N_("previous"),
    "play_tip": N_("play / pause (space)"), "play": N_("play"),
    "next_tip": N_("next step (right arrow)"), "next": N_("next"),
    "zoom_tip": N_("the whole graph in the window, or its width only"), "zoom": N_("whole graph"),
    "this_step": N_("This step"), "ready": N_("Ready queue"), "ready_note": N_("(runs first at the top)"),
    "waiting": N_("Waiting for gradients"), "waiting_note": N_("(dependency counts)"),
    "written": N_(".grad written so far"),
}

SENTENCES = {  # the script's sentences: trace_page.js fills the {fields}
    "root": N_("{node} with gradient {grad}"),
    "list": N_("{first}, {next}"),
    "before": N_("Before {kind}: it starts from {roots}."),
    "no_start": N_("Backward did not start: it failed before any node ran."),
    "rule": N_("Each node runs once, when every gradient it waits for has arrived (its dependency count is 0)."),
    "fails": N_("{node} fails: {error}"),
    "done": N_("empty: backward is done"),
    "empty": N_("empty"),
    "waits_one": N_("{node}: waits for 1 more gradient"),
    "waits_many": N_("{node}: waits for {count} more gradients"),
    "none": N_("none"),
    "none_yet": N_("none yet"),
    "grad_line": N_("{value}.grad = {grad} ({by})"),
    "a_value": N_("a value"),
    "its_value": N_("its value"),
    "by_assignment": N_("assignment"),
    "skipped": N_("{node}: no gradient reached it, so it does not run; its inputs stop waiting for it."),
    "sum": N_(" (the sum of {count} gradients: one per path)"),
    "hooked": N_("; a hook changed it to {grad}"),
    "runs": N_("{node} runs with gradient {grad}{sum}{hooked}."),
    "first": N_("It is where backward starts."),
    "why": N_("Why now: its dependency count reached 0, and it came first in the ready queue."),
    "constant": N_("→ a constant input: nothing sent (requires_grad=False)"),
    "sends": N_("→ {node}: sends {grad}"),
    "writes": N_("writes {value}.grad = {grad} ({by})"),
    "frees": N_("frees its saved values (no retain_graph): a second backward through it would fail"),
    "received": N_("received {grad}"),
    "received_sum": N_("received {grad} (sum of {count})"),
    "counter": N_("step {position} of {last}"),
    "play": N_("▶ play"),
    "pause": N_("⏸ pause"),
    "fit": N_("fit width"),
    "whole": N_("whole graph"),
    "no_diagram": N_("No diagram: {problem}. The steps are listed here."),
    "capped": N_("Showing the first {shown} of {total} steps."),
}


def iframe(page_html: str) -> str:
    """The page in an iframe, for a notebook: its script and styles stay out of the notebook's."""
    return (f'<iframe srcdoc="{html.escape(page_html, quote=True)}" '
            f'style="width:100%;height:{IFRAME_HEIGHT}px;border:1px solid #ccc"></iframe>')


def _svg(graph: schema.Graph, steps: list[dict[str, Any]], timeout: float) -> tuple[str, str | None]:
    """The inline SVG of the diagram, sized for the gradients the trace writes, or ("", why not)."""
    final = {w["value"]: w["grad"] for s in steps if (w := s["wrote"]) is not None and w["value"] is not None}
    sized = graph._replace(nodes=tuple(
        n._replace(grad=_float(final[n.id])) if isinstance(n, schema.ValueNode) and n.id in final
        and len(_grad_line(_float(final[n.id]))) > len(_grad_line(n.grad)) else n
        for n in graph.nodes
    ))
    renderer = render.find_renderer()
    if renderer is None:
        return "", render.NO_RENDERER
    source = dot.build(sized, show_saved=True, legend=True).source
    out, error = render.run(renderer, ["-Tsvg"], timeout, timeout, source.encode("utf-8"))
    if error is not None:
        return "", error
    svg = render.finish_svg(out, renderer).decode("utf-8")
    return svg[svg.index("<svg"):], None


def _grad_line(grad: float | None) -> str:
    return "grad None" if grad is None else f"grad {dot.number(grad)}"


def _json_number(x: float | None) -> float | str | None:
    return x if x is None or math.isfinite(x) else str(x)


def _float(x: float | str | None) -> float | None:
    return None if x is None else float(x)


def _asset(name: str) -> str:
    """A file beside this module (package data), read as a path: ``importlib.resources`` would
    cost the renderer's worker more to import than the rest of the page."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


_TEMPLATE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{css}
</style>
</head>
<body>
<header>
  <h1>{title}</h1>
  <nav id="controls" aria-label="{steps}">
    <button id="prev" type="button" title="{prev_tip}">&#9664; {prev}</button>
    <button id="play" type="button" title="{play_tip}">&#9654; {play}</button>
    <button id="next" type="button" title="{next_tip}">{next} &#9654;</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="{step}">
    <span id="counter"></span>
    <button id="zoom" type="button" title="{zoom_tip}">{zoom}</button>
  </nav>
</header>
<main>
  <div id="graph">{svg}</div>
  <aside id="panel">
    <section><h2>{this_step}</h2><p id="what"></p><p id="why" class="muted"></p><ul id="sends"></ul></section>
    <section><h2>{ready} <span class="muted">{ready_note}</span></h2><ol id="ready"></ol></section>
    <section><h2>{waiting} <span class="muted">{waiting_note}</span></h2><ul id="deps"></ul></section>
    <section><h2>{written}</h2><ul id="grads"></ul></section>
    <p id="notice" class="muted"></p>
  </aside>
</main>
<script type="application/json" id="trace-data">{data}</script>
<script>
{js}
</script>
</body>
</html>
"""
