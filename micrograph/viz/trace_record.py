"""``trace_backward``: watch ``y.backward()`` run, one engine step at a time.

The diagrams show the graph before or after backward; the documents describe
the middle in words ("找到所有 y 到 w 的路径", "非叶子节点的梯度内存会被释放").
This records the middle: ``y.backward(...)`` runs exactly as usual (same
results, same hooks, same errors) while a ``micrograph.observe`` observer
notes each node the engine runs, and the result is plain JSON data plus a
self-contained page (``trace_page``) that replays it on the diagram.

The data refers to the engine's nodes by small refs (``"n0"``, ``"n1"`` ...)
and to the diagram by the ids ``graph_json`` gave (``"v0"`` values, ``"f0"``
ops), so it can cross a process boundary: the grader records it in the
sandboxed child and draws the page in the parent (``BackwardTrace.from_json``
checks it first).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Literal

from micrograph import observe
from micrograph.node import AccumulateGrad, Node
from micrograph.i18n import N_
from micrograph.value import Value
from micrograph.viz import internals
from micrograph.viz.collect import DEFAULT_MAX_NODES, DiagramIds, graph_json_with_ids

FORMAT = "micrograph.trace/1"
TITLE = N_("backward(), step by step")  # translated where the page is made
MAX_MESSAGE = 500  # an error message is cut there: a page, not a log
MAX_SHIPPED_STEPS = 2_000  # first_backward keeps this many steps (and counts the rest): the grader's wire is capped


def trace_backward(
    y: Value,
    *,
    names: Mapping[str, Value] | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    errors: Literal["raise", "record"] = "raise",
    **backward_kwargs: Any,
) -> BackwardTrace:
    """Run ``y.backward(**backward_kwargs)`` and record each step of the engine.

    ``names`` labels values on the diagram (``{"w": w, "y": y}``); at most
    ``max_nodes`` nodes are drawn, as in ``draw``.  When backward fails (a
    second backward, a saved value modified in place), the engine's error is
    raised as usual with the trace up to the failing step in its ``.trace``
    attribute; ``errors="record"`` returns that trace instead of raising.
    """
    if not isinstance(y, Value):
        raise TypeError(f"trace_backward() traces y.backward() for a Value y, got {type(y).__name__}")
    if errors not in ("raise", "record"):
        raise ValueError(f"errors must be 'raise' or 'record', got {errors!r:.60}")
    _check_max_nodes(max_nodes)
    recorder = _Recorder(names or {}, max_nodes, max_steps=None)
    failure: BaseException | None = None
    with observe.observing(recorder):
        try:
            y.backward(**backward_kwargs)
        except Exception as error:  # the engine's own error, kept for the trace and re-raised below
            failure = error
    if recorder.broken is not None:
        raise RuntimeError(f"trace_backward could not record this pass: {recorder.broken}")
    trace = recorder.trace()
    if trace is None:  # backward refused its arguments before any pass started
        assert failure is not None
        raise failure
    if failure is not None and errors == "raise":
        failure.trace = trace  # type: ignore[attr-defined]
        raise failure
    return trace


class first_backward:  # noqa: N801 - used as a context manager, like contextlib's
    """Record the first backward pass that runs inside the block, whoever starts it.

    The grader wraps a submission's code in it: the student's own ``y.backward()``
    (under any name) is the one recorded.  ``names`` may come after the fact::

        with first_backward() as recording:
            y = student_function()
        trace = recording.trace(names={"y": y})    # None if no backward ran
    """

    def __init__(self, max_nodes: int = DEFAULT_MAX_NODES, max_steps: int | None = MAX_SHIPPED_STEPS) -> None:
        _check_max_nodes(max_nodes)
        self._recorder = _Recorder({}, max_nodes, max_steps)
        self._context = observe.observing(self._recorder)

    def __enter__(self) -> first_backward:
        self._context.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._context.__exit__(*exc)

    def trace(self, names: Mapping[str, Value] | None = None) -> BackwardTrace | None:
        """The recorded pass, labelled with ``names``; None if no backward ran (or recording it failed)."""
        if self._recorder.broken is not None:
            return None
        return self._recorder.trace(names)


def _check_max_nodes(max_nodes: Any) -> None:
    if type(max_nodes) is not int or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r:.60}")


def _safely(method: Callable[..., None]) -> Callable[..., None]:
    """An observer method that never breaks the backward it watches: a failure stops the recording."""

    @functools.wraps(method)
    def run(self: _Recorder, record: Any) -> None:
        if self.broken is not None:
            return
        try:
            method(self, record)
        except Exception as exc:  # noqa: BLE001 - the student's backward must go on unchanged
            self.broken = f"{type(exc).__name__}: {exc}"[:MAX_MESSAGE]

    return run


class BackwardTrace:
    """The steps of one backward pass, as plain data, and the page that replays them."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    @classmethod
    def from_json(cls, raw: Any) -> BackwardTrace:
        """A trace from untrusted JSON data (e.g. a sandboxed process's); ValueError naming the problem."""
        from micrograph.viz import trace_schema

        return cls(trace_schema.validate(raw))

    @property
    def steps(self) -> list[dict[str, Any]]:
        """One dict per node the engine ran, in the engine's order (see the module docstring)."""
        steps: list[dict[str, Any]] = self.data["steps"]
        return steps

    @property
    def error(self) -> dict[str, Any] | None:
        """``{"step", "node", "type", "message"}`` when backward failed, else None."""
        error: dict[str, Any] | None = self.data["error"]
        return error

    def to_json(self) -> str:
        return json.dumps(self.data, allow_nan=False)

    def html(self, title: str = TITLE, timeout: float = 30.0) -> str:
        """The self-contained page (inline SVG, CSS and JavaScript; nothing fetched).

        ``timeout``: seconds for the renderer that lays the graph out; past it,
        or without a renderer, the page lists the steps without a diagram.
        """
        from micrograph.viz import trace_page

        return trace_page.page(self.data, title, timeout)

    def save_html(self, path: str | Path, title: str = TITLE, timeout: float = 30.0) -> Path:
        """Write the page to ``path`` (folders made as needed); the path written."""
        from micrograph.viz import trace_page

        return trace_page.save(self.data, path, title, timeout)

    def _repr_html_(self) -> str:
        from micrograph.viz import trace_page

        return trace_page.iframe(self.html())

    def __repr__(self) -> str:
        failed = "" if self.error is None else f", failed at step {self.error['step']}"
        return f"<BackwardTrace: {len(self.steps)} steps{failed}>"


class _Recorder(observe.Observer):
    """Turns the engine's records into plain data for the first pass it sees.

    A hook that runs a backward of its own starts another pass: its steps are
    not part of this trace.
    """

    def __init__(self, names: Mapping[str, Value], max_nodes: int, max_steps: int | None) -> None:
        self.given = names
        self.max_nodes = max_nodes
        self.max_steps = max_steps
        self.names = _names_by_key(names)
        self.graph: dict[str, Any] = {}
        self.ids = DiagramIds({}, {}, {})
        self.number: int | None = None
        self.refs: dict[Node, str] = {}
        self.nodes: dict[str, dict[str, Any]] = {}
        self.start: dict[str, Any] = {}
        self.steps: list[dict[str, Any]] = []
        self.total = 0
        self.error: dict[str, Any] | None = None
        self.broken: str | None = None  # why recording stopped, if it did

    # -- the observer (each method stops recording rather than raise into the engine) -------
    @_safely
    def pass_started(self, start: observe.PassStart) -> None:
        """Draw the graph as it is now (saved values not yet freed), then note the pass."""
        if self.number is not None:  # another pass: this trace is complete, stop watching
            self.finished = True
            return
        self.number = start.number
        roots = [internals.stand_in(n) for n, _ in start.roots]
        self.graph, self.ids = graph_json_with_ids(*roots, names=self.given, max_nodes=self.max_nodes)
        self.start = {
            "kind": start.kind.value, "retain_graph": start.retain_graph, "create_graph": start.create_graph,
            "roots": [{"node": self.ref(n), "grad": _number(g)} for n, g in start.roots],
            "dependencies": {self.ref(n): c for n, c in start.dependencies.items()},
            "ready": [self.ref(n) for n in start.ready],
        }

    @_safely
    def step(self, step: observe.Step) -> None:
        if step.pass_number != self.number:
            return
        self.total += 1
        if self.max_steps is not None and len(self.steps) >= self.max_steps:
            return
        node = step.node
        inputs = self.ids.inputs.get(node, ())
        self.steps.append({
            "node": self.ref(node),
            "received": _number(step.received),
            "contributions": step.contributions,
            "grad": _number(step.grad),
            "sent": [
                {"to": None if s.to is None else self.ref(s.to), "edge": inputs[i] if i < len(inputs) else None,
                 "grad": _number(s.grad)}
                for i, s in enumerate(step.sent)
            ],
            "waiting": [[self.ref(n), c] for n, c in step.waiting],
            "wrote": self._wrote(node, step),
            "released": step.released,
            "ready": [self.ref(n) for n in step.ready],
        })

    @_safely
    def failed(self, failure: observe.Failure) -> None:
        if failure.pass_number != self.number or self.error is not None:
            return
        self.error = {
            "step": failure.index,
            "node": None if failure.node is None else self.ref(failure.node),
            "type": type(failure.error).__name__,
            "message": str(failure.error)[:MAX_MESSAGE],
        }

    # -- plain data ------------------------------------------------------------------------
    def ref(self, node: Node) -> str:
        """A short name for ``node`` in this trace, and its entry in ``nodes``."""
        ref = self.refs.get(node)
        if ref is None:
            ref = self.refs[node] = f"n{len(self.refs)}"
            leaf = node.variable if type(node) is AccumulateGrad else None
            key: Value | Node = node if leaf is None else leaf
            self.nodes[ref] = {
                "name": node.name().rsplit("::", 1)[-1],
                "label": self.names.get(key),
                "op": self.ids.ops.get(node),
                "value": self.ids.values.get(key),
            }
        return ref

    def _wrote(self, node: Node, step: observe.Step) -> dict[str, Any] | None:
        if step.wrote is None or step.write is None:
            return None
        key: Value | Node = step.wrote if type(node) is AccumulateGrad else node
        grad = step.write.grad
        return {
            "value": self.ids.values.get(key),
            "label": self.names.get(key),
            "by": step.write.writer.value,
            "grad": None if grad is None else _number(grad.item()),
        }

    def trace(self, late_names: Mapping[str, Value] | None = None) -> BackwardTrace | None:
        """The recorded pass (None if none started), with ``late_names`` labelling its values."""
        if self.number is None:
            return None
        labels = {self.ids.values[k]: name for k, name in _names_by_key(late_names or {}).items() if k in self.ids.values}
        numbers = _numbers_now(late_names or {}, self.ids)
        for node in self.graph["nodes"]:
            if node["id"] in labels and node.get("kind") == "value":
                node["name"] = labels[node["id"]]
                node["data"] = numbers.get(node["id"], node["data"])
        for entry in (*self.nodes.values(), *(s["wrote"] for s in self.steps if s["wrote"] is not None)):
            if entry["value"] in labels:
                entry["label"] = labels[entry["value"]]
        return BackwardTrace({
            "format": FORMAT, "graph": self.graph, "pass": self.start, "nodes": self.nodes,
            "steps": self.steps, "steps_total": self.total, "error": self.error,
        })


def _names_by_key(names: Mapping[str, Value]) -> dict[Value | Node, str]:
    """Labels by what the diagram is keyed by: a leaf by its Value, any other value by its grad_fn."""
    out: dict[Value | Node, str] = {}
    for name, v in names.items():
        if not isinstance(v, Value):
            raise TypeError(f"names must map str -> Value, got {type(name).__name__} -> {type(v).__name__}")
        key: Value | Node = v if v.grad_fn is None else v.grad_fn
        out[key] = f"{out[key]}, {name}" if key in out else name
    return out


def _numbers_now(names: Mapping[str, Value], ids: DiagramIds) -> dict[str, float | str | None]:
    """The number each named non-leaf holds now, by its drawn id: drawn when the pass began, before
    its Value was named, it showed the number its node produced, not an in-place change made
    since under no_grad or through ``.data``, which keeps the Value's ``grad_fn`` (a leaf was drawn
    from its own Value)."""
    return {ids.values[v.grad_fn]: _number(internals.node_output(v.grad_fn, v)) for v in names.values()
            if v.grad_fn is not None and v.output_nr == 0 and v.grad_fn in ids.values}


def _number(x: Any) -> float | str | None:
    """A gradient as JSON: a float (a Value's number under create_graph); nan and inf as strings."""
    if x is None:
        return None
    if isinstance(x, Value):
        x = x.item()
    x = float(x)
    return x if math.isfinite(x) else str(x)
