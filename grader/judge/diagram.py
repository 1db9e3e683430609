"""Draw what the child reported about the submission's graph, in the parent, never failing.

The child serialised the graph with ``micrograph.viz.graph_json``; this renders it with
``micrograph.viz.render_json`` in a worker process with its own time and memory limits
(``grader.sandbox.renderer``).  A missing ``micrograph.viz``, a missing
renderer, or a graph the renderer chokes on becomes a one-line note, never an exception: the
diagram must not change or break a grade.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from grader.judge import explain
from grader.sandbox import renderer

RENDER_TIMEOUT = 10.0
STEM = "graph"


def render(
    record: dict[str, Any] | None, directory: Path, *, display: str, memory_limit: int,
    why_missing: str, formats: tuple[str, ...] = ("svg",),
) -> tuple[list[str], str | None]:
    """(paths written, note for the student or None)."""
    try:
        importlib.import_module("micrograph.viz")  # the worker needs it too
    except Exception:  # noqa: BLE001 - any failure to import means "no diagrams here"
        return [], "diagram unavailable: micrograph.viz is not installed"
    if record is None:
        return [], f"no diagram: {why_missing}"
    error = record.get("error")
    why = None if error is None else explain.test_error(error, display, memory_limit)
    graph = record.get("graph")
    if type(graph) is not dict:
        return [], f"no diagram: {why}" if why else "diagram unavailable in the sandbox"
    try:
        paths = renderer.render(graph, directory, STEM, formats, RENDER_TIMEOUT)
    except renderer.RenderFailed as exc:
        return [], f"no diagram: {exc}"
    except Exception as exc:  # noqa: BLE001 - the diagram never breaks the grade
        return [], f"no diagram: rendering failed ({type(exc).__name__}: {exc})"
    rendered = [p for p in paths if not p.endswith(".gv")]
    if why:
        return paths, f"the diagram shows the graph as it was before this error: {why}"
    return paths, None if rendered or not formats else "diagram: only the .gv source (no renderer)"
