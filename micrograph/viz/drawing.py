"""Files drawn from plain data, which may come from untrusted code: a graph dict
(``render_json``) and a backward trace's data (``save_trace_json``).

This module and the ones it loads (``schema``, ``dot``, ``render``, ``trace_schema``,
``trace_page``) import none of the engine: the grader's renderer worker loads them without
running ``micrograph``'s ``__init__`` (``grader.sandbox.draw_worker``), which imports the whole
engine, about half of what the worker would load before its first request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from micrograph.i18n import SOURCE_LANGUAGE, language, using


def render_json(
    graph: Any,
    directory: str | Path,
    stem: str,
    formats: tuple[str, ...] = ("svg",),
    timeout: float = 10.0,
    *,
    show_saved: bool = False,
    legend: bool = True,
) -> list[str]:
    """Draw a ``graph_json`` dict to ``directory/stem.gv`` and each format (svg, png); the paths written.

    The dict may come from untrusted code: a malformed one raises ValueError
    naming the problem.  Without a renderer, or past ``timeout`` seconds, only a
    one-line notice is printed (stderr) and the ``.gv`` source is still written.
    """
    from micrograph.viz import dot, render, schema

    typed = schema.validate(graph)
    diagram = dot.build(typed, show_saved=show_saved, legend=legend)
    english = english_source(typed, show_saved, legend) if "png" in formats else None
    return render.write(diagram.source, directory, stem, formats, timeout, english=english)


def english_source(graph: Any, show_saved: bool, legend: bool) -> str | None:
    """The diagram's DOT source with English labels when the labels are in another language, else None.

    A PNG renderer without a Chinese font draws this one instead (see ``render.write``).
    """
    from micrograph.viz import dot

    if language() == SOURCE_LANGUAGE:
        return None
    with using(SOURCE_LANGUAGE):
        return dot.build(graph, show_saved=show_saved, legend=legend).source


def save_trace_json(trace: Any, path: str | Path, title: str, timeout: float) -> Path:
    """Check a trace's data (``BackwardTrace.to_json``'s, from untrusted code: ValueError naming
    the problem) and write its page to ``path``, as ``BackwardTrace.save_html`` does; the path written."""
    from micrograph.viz import trace_page, trace_schema

    return trace_page.save(trace_schema.validate(trace), path, title, timeout)
