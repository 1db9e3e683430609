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
"""

from __future__ import annotations

import html
import json
import math
from importlib import resources
from typing import Any

from micrograph.viz import dot, render, schema

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
        "problem": problem,
    }
    text = json.dumps(payload, allow_nan=False, ensure_ascii=False).replace("<", "\\u003c")
    return _TEMPLATE.format(
        title=html.escape(title), css=_asset("trace_page.css"), svg=svg, data=text, js=_asset("trace_page.js"),
    )


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
    return resources.files("micrograph.viz").joinpath(name).read_text(encoding="utf-8")


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
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
  <nav id="controls" aria-label="steps">
    <button id="prev" type="button" title="previous step (left arrow)">&#9664; previous</button>
    <button id="play" type="button" title="play / pause (space)">&#9654; play</button>
    <button id="next" type="button" title="next step (right arrow)">next &#9654;</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <span id="counter"></span>
    <button id="zoom" type="button" title="the whole graph in the window, or its width only">whole graph</button>
  </nav>
</header>
<main>
  <div id="graph">{svg}</div>
  <aside id="panel">
    <section><h2>This step</h2><p id="what"></p><p id="why" class="muted"></p><ul id="sends"></ul></section>
    <section><h2>Ready queue <span class="muted">(runs first at the top)</span></h2><ol id="ready"></ol></section>
    <section><h2>Waiting for gradients <span class="muted">(dependency counts)</span></h2><ul id="deps"></ul></section>
    <section><h2>.grad written so far</h2><ul id="grads"></ul></section>
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
