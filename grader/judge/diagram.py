"""Draw what the child reported about the submission's graph, in the parent, never failing.

The child serialised the graph with ``micrograph.viz.graph_json``; this renders it with
``micrograph.viz.render_json`` in a worker process with its own time and memory limits
(``grader.sandbox.renderer``).  A missing ``micrograph.viz``, a missing
renderer, or a graph the renderer chokes on becomes a one-line note, never an exception: the
diagram must not change or break a grade.  ``render_difference`` draws the graph of a failed
public test with the node where it first differs from the reference's marked.
"""

from __future__ import annotations

import contextvars
import importlib
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from grader.i18n import _
from grader.i18n import test_name as shown_name
from grader.judge import explain, marking
from grader.judge.explained import Difference, clean
from grader.sandbox import renderer
from grader.sandbox.child import wire
from grader.sandbox.child.wire import DiagramRecord
from grader.spec.limits import Limits

RENDER_TIMEOUT = 10.0
STEM = "graph"
TRACE_STEM = "backward"  # backward.html: the submission's first backward pass, step by step
REPLAY_STEM = "backward_replayed"  # the build track: PyTorch's backward through the student's graph


WRITTEN = {(STEM, ".gv"), (STEM, ".svg"), (STEM, ".png"), (TRACE_STEM, ".html"), (REPLAY_STEM, ".html"),
           (marking.STEM, ".gv"), (marking.STEM, ".svg"), (marking.STEM, ".png")}  # what a run may draw


def clear(directory: Path) -> None:
    """Remove what an earlier run drew into ``directory``: a difference fixed since, or the
    replayed page of a run whose numbers were right, must not stay beside this run's files
    (only the grader's own file names go; nothing else in the folder is touched)."""
    for stem, suffix in WRITTEN:
        try:
            (directory / f"{stem}{suffix}").unlink(missing_ok=True)
        except OSError:  # not a file, or not ours to remove: this run's drawing then says why
            pass


def page_link(path: str) -> str:
    """What a link to one of the pages ``grade`` writes says: the submission's own backward
    run, or (the build track) PyTorch's backward replayed through the student's graph."""
    if Path(path).stem == REPLAY_STEM:
        return _("PyTorch's backward through your graph, replayed step by step")
    return _("watch this backward run, step by step")


@dataclass
class Drawing:
    """The files written, a note for the student, and whether the submission's graph is missing
    or drawn only up to an error (``incomplete``), as opposed to this machine having no way to
    draw (no ``micrograph.viz``, no renderer): ``grade check`` wants a solution's whole graph."""

    paths: list[str] = field(default_factory=list)
    note: str | None = None
    incomplete: bool = False


def render(
    record: DiagramRecord | None, directory: Path, *, display: str, limits: Limits,
    why_missing: str, formats: tuple[str, ...] = ("svg",), names: explain.LineNames | None = None,
    drawn_elsewhere: bool = False,
) -> Drawing:
    """Render the child's diagram record into ``directory`` (``graph.svg``, ``graph.gv``), then the
    page of the backward pass the submission ran (``backward.html``) beside it.  ``names`` names
    the file's lines in an error (a notebook's cells), as in the tests' feedback.
    ``drawn_elsewhere``: another picture of the student's graph is drawn beside (a failed public
    test's ``difference.svg``), so a graph not drawn is said to be this file, not "no diagram"."""
    missing = _missing(f"{STEM}.{formats[0] if formats else 'gv'}" if drawn_elsewhere else None)
    drawing = _graph(record, directory, display=display, limits=limits, why_missing=why_missing,
                     formats=formats, names=names, missing=missing)
    trace = None if record is None else record.get("trace")
    if trace is not None and drawing.paths:
        drawing.paths += _trace(trace, directory)
    return drawing


def _trace(trace: dict[str, Any], directory: Path) -> list[str]:
    """``backward.html`` (checked and drawn by the renderer worker); nothing if it cannot be drawn."""
    title = _("{id}: backward(), step by step", id=directory.name)
    try:
        return renderer.render_trace(trace, directory, TRACE_STEM, title, RENDER_TIMEOUT)
    except Exception:  # noqa: BLE001 - a missing page never changes the grade; graph.svg is there
        return []


def _graph(
    record: DiagramRecord | None, directory: Path, *, display: str, limits: Limits,
    why_missing: str, formats: tuple[str, ...], names: explain.LineNames | None, missing: Callable[[object], str],
) -> Drawing:
    try:
        importlib.import_module("micrograph.viz")  # the worker needs it too
    except Exception:  # noqa: BLE001 - any failure to import means "no diagrams here"
        return Drawing(note=_("diagram unavailable: micrograph.viz is not installed"))
    if record is None:
        return Drawing(note=missing(why_missing), incomplete=True)
    error = record["error"]
    why = None if error is None else _not_drawn(error) or explain.test_error(error, display, limits, names)
    graph = record["graph"]
    if graph is None:
        if why:
            return Drawing(note=missing(why), incomplete=True)
        return Drawing(note=_("diagram unavailable in the sandbox"))
    try:
        paths = renderer.render(graph, directory, STEM, formats, RENDER_TIMEOUT)
    except renderer.RenderFailed as exc:
        return Drawing(note=missing(exc), incomplete=True)
    except Exception as exc:  # noqa: BLE001 - the diagram never breaks the grade
        return Drawing(note=missing(_("rendering failed ({error})", error=f"{type(exc).__name__}: {exc}")),
                       incomplete=True)
    if why and error["type"] in wire.TIMEOUTS:
        return Drawing(paths, _("the diagram shows the graph as it was when time ran out: {why}", why=why),
                       incomplete=True)
    if why:
        return Drawing(paths, _("the diagram shows the graph as it was before this error: {why}", why=why),
                       incomplete=True)
    rendered = [p for p in paths if not p.endswith(".gv")]
    if rendered or not formats:
        return Drawing(paths)
    return Drawing(paths, _("diagram: only the .gv source (no renderer)"))


def _missing(file: str | None) -> Callable[[object], str]:
    """The note on a graph not drawn, from why: "no diagram", or, where another picture of the
    student's graph is drawn beside (``file`` given), the name of the one that is not."""
    if file is None:
        return lambda why: _("no diagram: {why}", why=why)
    return lambda why: _("{file} not drawn: {why}", file=file, why=why)


def _not_drawn(error: wire.ErrorRecord) -> str | None:
    """Why nothing was drawn where the diagram probe's answer held no Value (``wire.NOT_DRAWN``):
    a number returned where a Value is drawn is the student's slip, not an error of their code."""
    if error["type"] != wire.NOT_DRAWN:
        return None
    return _("what your code returned to be drawn is of type {type}, not a Value: it has no graph to draw",
             type=clean(error["message"]))


class Warming:
    """Draws a child's diagram record as soon as it arrives (``grader.sandbox.early``), while
    the child runs its tests, so that ``render`` for the same record afterwards replays the
    files instead of waiting for the renderer (``grader.sandbox.drawn``).  The drawing goes to a
    folder of its own: what the student's folder gets is still decided by ``render`` alone."""

    def __init__(self, formats: tuple[str, ...]) -> None:
        self.formats = formats
        self.threads: list[threading.Thread] = []

    def hook(self, directory: Path) -> Callable[[DiagramRecord], None]:
        """The callback for the run whose diagrams ``render`` will draw into ``directory``."""
        def start(record: DiagramRecord) -> None:
            context = contextvars.copy_context()  # the language the caller chose, if it did
            thread = threading.Thread(target=context.run, args=(self._draw, record, directory.name),
                                      name="diagram-warming", daemon=True)
            self.threads.append(thread)
            thread.start()

        return start

    def _draw(self, record: DiagramRecord, name: str) -> None:
        """The requests ``render`` will make for ``record`` (its folder's name is in the backward
        page's title), into a temporary folder of that name."""
        graph = record["graph"]
        if graph is None:
            return
        with tempfile.TemporaryDirectory(prefix="grade-warming-") as scratch:
            folder = Path(scratch) / name
            try:
                renderer.render(graph, folder, STEM, self.formats, RENDER_TIMEOUT)
            except Exception:  # noqa: BLE001 - ``render`` meets the same failure and says it
                return
            trace = record.get("trace")
            if trace is not None:
                _trace(trace, folder)

    def join(self) -> None:
        """Wait for the drawings started (each within the renderer's own limits)."""
        for thread in self.threads:
            thread.join()
        self.threads.clear()


def render_difference(test_name: str, found: Difference, directory: Path,
                      formats: tuple[str, ...] = ("svg",)) -> Drawing:
    """Draw the submission's graph from a failed public test with its first differing node
    marked (``grader.judge.marking``); nothing when there is nothing to draw."""
    if found.graph is None or found.node is None:
        return Drawing()
    graph = marking.viz_graph(found.graph, found.node, str(found.graph.get("label", "")))
    if graph is None:
        return Drawing()
    try:
        paths = renderer.render(graph, directory, marking.STEM, formats, RENDER_TIMEOUT)
    except Exception:  # noqa: BLE001 - the diagram never breaks the grade
        return Drawing()
    shown = [p for p in paths if not p.endswith(".gv")] or paths
    if not shown:
        return Drawing()
    return Drawing(paths, _("{path}: your graph in the public test '{test}'; of the nodes where it "
                            "differs from the statement's graph, the one your code made first has a "
                            "thick blue border",
                            path=shown[0], test=shown_name(test_name)))
