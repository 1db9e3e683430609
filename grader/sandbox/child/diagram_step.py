"""The diagram step: run the exercise's diagram probe on the submission and send the graph it
names, with the first backward pass it ran as a trace. Apart from the driver (``main``) because
drawing is a step of its own that never stops the tests: whatever it raises becomes the
diagram's error, never a test's."""

from __future__ import annotations

import contextlib
import sys
import types
from typing import Any

from grader import spec
from grader.sandbox.child import wire
from grader.sandbox.child.alarm import Share, alarm
from grader.sandbox.child.reported import error_record, plain
from grader.sandbox.child.same import by_identity
from grader.sandbox.child.wire import DiagramRecord
from grader.spec import probe
from grader.spec.uncalled_mode import told_if_mode_uncalled


def _roots(drawn: Any) -> tuple[list[Any], Any, Any]:
    """A diagram probe's answer as (roots, names, operands): a Value, a list, (roots, names), or
    (roots, names, operands), the Values each op was made from (``grader.spec.made_from``)."""
    parts = drawn if type(drawn) is tuple and len(drawn) in (2, 3) else (drawn, None)
    roots, names, operands = (*parts, None)[:3]
    return (list(roots) if type(roots) in (list, tuple) else [roots]), names, operands


def diagram_record(
    exercise: spec.Exercise, sub: types.ModuleType, submission: str, share: Share
) -> DiagramRecord:
    """Run the diagram probe under a soft alarm and serialise the graph it names; when the
    probe fails, serialise what it ``show``-ed before failing, with the error.  The first
    backward pass the probe runs (the submission's own, under any name) is recorded as a trace."""
    viz = sys.modules.get("micrograph.viz")
    graph_json, drawable = getattr(viz, "graph_json", None), getattr(viz, "drawable", None)
    first_backward = getattr(viz, "first_backward", None)
    if graph_json is None or drawable is None:
        return {"kind": "diagram", "graph": None, "trace": None, "error": None}

    error = None
    recording = first_backward() if first_backward is not None else contextlib.nullcontext()
    try:
        with alarm(share):
            try:
                with recording, told_if_mode_uncalled(submission):  # `with no_grad:` told as the tests tell it
                    roots, names, operands = _roots(exercise.diagram_probe(sub))  # type: ignore[misc]
            except BaseException as exc:  # noqa: BLE001 - a diagram never stops the tests
                error = error_record(exc, submission)
                if not probe.shown:
                    return {"kind": "diagram", "graph": None, "trace": _trace(recording, None), "error": error}
                roots, names, operands = _roots(probe.shown[-1])
            values, names = drawable(roots, names)  # a float returned where a Value is drawn: not drawn
            if not values:
                error = error or {"type": wire.NOT_DRAWN, "message": probe.type_name(roots[0]) if roots else "",
                                  "function": None, "caller": None, "line": None, "step": None,
                                  "fresh": False}
                return {"kind": "diagram", "graph": None, "trace": _trace(recording, None), "error": error}
            values, names = by_identity(values, names)  # a student's __eq__ never merges two nodes
            graph = plain(graph_json(*values, names=names, operands=operands))
        return {"kind": "diagram", "graph": graph, "trace": _trace(recording, names), "error": error}
    except BaseException as exc:  # noqa: BLE001 - serialising failed: no graph, say why
        return {"kind": "diagram", "graph": None, "trace": None, "error": error or error_record(exc, submission)}


def _trace(recording: Any, names: Any) -> dict[str, Any] | None:
    """The recorded backward pass as plain data, or None (none ran, or it cannot be serialised)."""
    try:
        trace = recording.trace(names) if hasattr(recording, "trace") else None
        return None if trace is None else plain(trace.data)
    except Exception:  # noqa: BLE001 - a missing trace never changes the grade
        return None
