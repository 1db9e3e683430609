"""The build track's pictures beside ``graph.svg``, drawn against PyTorch's side of the program.

A student's engine (ex16-ex22) is read only through the protocol PyTorch's objects speak
(``micrograph.viz.protocol``): its graph, never its steps.  So these pictures put that graph
beside the same program run by micrograph's engine (which follows PyTorch), here in the
parent, never in the student's process:

* ``difference.svg``: the student's graph with the first node where its shape (the kind of a
  node, its op's name, a value's role and name, its inputs in order) differs from micrograph's
  marked, as for the other exercises' graphs;
* ``backward_replayed.html``: micrograph's backward pass through that graph, step by step,
  drawn only when the student's graph has micrograph's shape and shows micrograph's numbers
  (before that, the page would show the numbers the stage asks for).  Its title and the note
  say what it is: PyTorch's order, replayed, not a record of what the student's engine did.

A release of the track alone ships micrograph's core without its code (``grader.publish.core_cut``),
so micrograph's side is computed when the release is built and shipped beside the public tests'
expected answers (``write_references``), and read from there when present.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from pathlib import Path
from typing import Any, NamedTuple

import micrograph
from micrograph.viz import first_backward, graph_json, schema

from grader.i18n import N_, _
from grader.judge.diagram import RENDER_TIMEOUT, REPLAY_STEM, Drawing
from grader.judge.marking import STEM as DIFFERENCE_STEM
from grader.judge.reference import DEFAULT_SHIPPED_DIR
from grader.sandbox import renderer
from grader.spec.build import documents_graph
from grader.spec.build_checks import STAGE_IDS

SHIPPED_NAME = "replayed.json"  # beside the shipped expected answers: {exercise id: [graph, trace]}

_REFERENCE_LOCK = threading.Lock()  # micrograph's observer is process-wide: one recording at a time


class Reference(NamedTuple):
    """The documents' graph as micrograph builds it at a stage, and its backward pass (None
    before the stage that runs backward)."""

    graph: dict[str, Any]
    trace: dict[str, Any] | None


def reference(exercise_id: str) -> Reference | None:
    """micrograph's side of a build-track stage's diagram, None for any other exercise."""
    if exercise_id not in STAGE_IDS:
        return None
    with _REFERENCE_LOCK:
        return _reference(STAGE_IDS.index(exercise_id) + 1)


@functools.cache
def _shipped() -> dict[str, Any]:
    path = DEFAULT_SHIPPED_DIR / SHIPPED_NAME
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def write_references(exercise_ids: list[str], directory: Path) -> None:
    """Ship micrograph's side of the build-track stages among ``exercise_ids`` into
    ``directory``, for a release whose micrograph cannot run (``grader.publish.core_cut``)."""
    stages = [i for i in exercise_ids if i in STAGE_IDS]
    found = {i: list(reference(i) or ()) for i in stages}
    (directory / SHIPPED_NAME).write_text(json.dumps(found, sort_keys=True), encoding="utf-8")


@functools.cache
def _reference(stage: int) -> Reference:
    shipped = _shipped().get(STAGE_IDS[stage - 1])
    if shipped is not None:
        return Reference(*shipped)
    with first_backward() as recording:
        roots, names = documents_graph(micrograph, stage)
    trace = recording.trace(names)
    return Reference(graph_json(*roots, names=names), None if trace is None else trace.data)


def _shape(node: schema.ValueNode | schema.OpNode | schema.OmittedNode) -> tuple[Any, ...]:
    if isinstance(node, schema.ValueNode):
        return "value", node.role, node.name
    return ("op", node.op) if isinstance(node, schema.OpNode) else ("omitted",)


def _inputs(graph: schema.Graph) -> dict[str, list[int]]:
    """Each node's inputs, in order, as positions in the node list (ids differ between graphs)."""
    at = {n.id: i for i, n in enumerate(graph.nodes)}
    found: dict[str, list[int]] = {n.id: [] for n in graph.nodes}
    for source, target in graph.edges:
        found[target].append(at[source])
    return found


def first_difference(student: schema.Graph, ours: schema.Graph) -> int | None:
    """The position of the first node of the student's graph whose shape or inputs differ from
    micrograph's (both are numbered by the same walk from the output), or None.  Two values met
    in each other's place on the walk (w where micrograph's has x, and x later) are there
    because the node that takes them has its inputs in another order: that node differs."""
    theirs, mine = _inputs(student), _inputs(ours)
    for i, node in enumerate(student.nodes):
        if i >= len(ours.nodes):
            return i
        other = ours.nodes[i]
        if isinstance(node, schema.ValueNode) and _shape(node) != _shape(other) and \
                _shape(node) in map(_shape, ours.nodes[i + 1:]) and _shape(other) in map(_shape, student.nodes[i + 1:]):
            return next((j for j, n in enumerate(student.nodes) if i in theirs[n.id]), i)
        if _shape(node) != _shape(other) or theirs[node.id] != mine[other.id]:
            return i
    return None if len(student.nodes) == len(ours.nodes) else len(student.nodes) - 1


ENTRIES = ("bare", "unpaired", "value_entry")  # entries of next_functions drawn as what they are, not values
ROLE = {"output": N_("the output"), "leaf": N_("a leaf that requires grad"),
        "retained": N_("a non-leaf that retains its grad"),
        "intermediate": N_("a non-leaf that does not retain its grad"), "const": N_("a value that requires no grad")}


def what_differs(student: schema.Graph, ours: schema.Graph, position: int) -> str | None:
    """The difference at the marked node, in words, where it is one a student reads off the
    picture: a named value of another role (drawn in another colour), or an op with fewer or
    more inputs, or whose inputs come in another order; None otherwise (the note then says only
    where)."""
    node = student.nodes[position]
    other = ours.nodes[position] if position < len(ours.nodes) else None
    if isinstance(node, schema.ValueNode) and node.role in ENTRIES:
        return _unpaired(student, node)
    if isinstance(node, schema.OpNode) and isinstance(other, schema.OpNode) and node.op == other.op:
        op = _op_named(student, node)
        split = _split_leaf(student, node)
        if split is not None:  # how many is not said: a note, as feedback, holds no number
            return _("{leaf} reaches {op} through an AccumulateGrad node of its own: your graph has more than "
                     "one AccumulateGrad node for {leaf}, where PyTorch's has one, drawn as {leaf} itself",
                     leaf=split, op=op)
        count, want = len(_inputs(student)[node.id]), len(_inputs(ours)[other.id])
        if count != want:  # an input left out (a constant's (None, 0)) or one too many: not their order
            return _("{op} has fewer inputs than in PyTorch's graph", op=op) if count < want else \
                _("{op} has more inputs than in PyTorch's graph", op=op)
        swapped = _other_output(student, ours, node, other)
        if swapped is not None:  # an edge's input_nr names another output of the same node
            return _("the edges into {op} lead to another output of the node they come from than in PyTorch's "
                     "graph: an unnamed value stands where PyTorch's has {name}", op=op, name=swapped)
        return _("the inputs of {op} come in another order than in PyTorch's graph", op=op)
    if isinstance(node, schema.ValueNode) and isinstance(other, schema.ValueNode) and node.name is not None \
            and node.name == other.name and node.role != other.role:
        return _("{name} is {role} in your graph, {other} in PyTorch's", name=node.name,
                 role=_(ROLE[node.role]), other=_(ROLE[other.role]))
    if isinstance(node, schema.ValueNode) and isinstance(other, schema.ValueNode) and node.name is None \
            and other.name is not None and node.role != other.role:  # an unnamed value in a named one's place
        if node.role == "const":  # an edge whose node is None: the input may require grad in the student's engine
            return _("where PyTorch's graph has {name}, {other}, an entry of next_functions in yours holds no node "
                     "(None), drawn as a constant", name=other.name, other=_(ROLE[other.role]))
        if _made_by_accumulator(student, position):  # an AccumulateGrad with no Value to write: drawn as an op
            return _("where PyTorch's graph has {name}, {other}, yours has an AccumulateGrad node whose variable is no "
                     "Value, drawn as an operation with an unnamed output", name=other.name, other=_(ROLE[other.role]))
        return _("{role} stands in your graph where PyTorch's has {name}, {other}", role=_(ROLE[node.role]),
                 name=other.name, other=_(ROLE[other.role]))
    return None


def _made_by_accumulator(graph: schema.Graph, position: int) -> bool:
    """Whether the value at ``position`` is the output of an AccumulateGrad node: one the drawing
    found no leaf on (its ``variable`` no Value), so it drew the node as an operation."""
    makers = [graph.nodes[i] for i in _inputs(graph)[graph.nodes[position].id]]
    return any(isinstance(n, schema.OpNode) and n.op.endswith("AccumulateGrad") for n in makers)


def _split_leaf(graph: schema.Graph, node: schema.OpNode) -> str | None:
    """The name of a leaf that reaches ``node`` through an AccumulateGrad drawn as an op of its own
    (one of several the engine made for that leaf, ``collect._split_accumulators``); None where no
    input of ``node`` is one."""
    inputs = _inputs(graph)
    for i in inputs[node.id]:
        made = graph.nodes[i]
        below = [graph.nodes[j] for j in inputs[made.id]]
        if isinstance(made, schema.OpNode) and made.op.endswith("AccumulateGrad") and len(below) == 1 \
                and isinstance(below[0], schema.ValueNode) and below[0].role in ("leaf", "output"):
            return below[0].name or "?"
    return None


def _op_named(graph: schema.Graph, node: schema.OpNode) -> str:
    """An op node as the student finds it: ``b.grad_fn (AddBackward0)`` where the value it made is
    named, else its op's name."""
    made = {n.id: n.name for n in graph.nodes if isinstance(n, schema.ValueNode) and n.role not in ENTRIES}
    name = next((made[target] for source, target in graph.edges if source == node.id and made.get(target)), None)
    return f"{name}.grad_fn ({node.op})" if name else node.op


def _unpaired(student: schema.Graph, node: schema.ValueNode) -> str:
    """The marked entry of a ``next_functions`` that is no (node, input_nr) pair, or a pair whose
    node is a Value, said as what it is: a node given without its input number, None, a Value,
    or another object."""
    ops = {n.id: n for n in student.nodes if isinstance(n, schema.OpNode)}
    taker = next((ops[target] for source, target in student.edges if source == node.id and target in ops), None)
    op = "?" if taker is None else _op_named(student, taker)
    if node.role == "value_entry":
        return _("{op} holds the Value {entry} itself in its next_functions, not a node: PyTorch's graph has a node "
                 "there (a leaf's AccumulateGrad, or the grad_fn that made a non-leaf)", op=op, entry=node.name or "?")
    if node.role == "bare":
        return _("{op} holds the node {entry} in its next_functions without its input number, where PyTorch's "
                 "graph has a (node, input_nr) pair", op=op, entry=(node.name or "?").rsplit("::", 1)[-1])
    if node.name == "None":
        return _("{op} holds a bare None in its next_functions, where PyTorch's graph has a (node, input_nr) pair",
                 op=op)
    return _("{op} holds an entry of type {type} in its next_functions, where PyTorch's graph has a "
             "(node, input_nr) pair", op=op, type=node.name)


def _other_output(student: schema.Graph, ours: schema.Graph, node: schema.OpNode, other: schema.OpNode) -> str | None:
    """The name of PyTorch's first input of ``other`` whose place among ``node``'s inputs holds an
    unnamed value made by a node of the same op: the edge's input_nr picks another output of that
    node (a name is drawn for output 0 alone), not another input; None where there is none."""
    theirs, mine = _inputs(student), _inputs(ours)
    for j, k in zip(theirs[node.id], mine[other.id]):
        got, want = student.nodes[j], ours.nodes[k]
        made_by = [student.nodes[i] for i in theirs[got.id]], [ours.nodes[i] for i in mine[want.id]]
        if isinstance(got, schema.ValueNode) and isinstance(want, schema.ValueNode) and got.name is None \
                and want.name is not None and list(map(_shape, made_by[0])) == list(map(_shape, made_by[1])):
            return want.name
    return None


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))


def same_numbers(student: schema.Graph, ours: schema.Graph) -> bool:
    """Whether every named value shows micrograph's data and grad (graphs of the same shape)."""
    return all(_same(s.data, o.data) and _same(s.grad, o.grad)
               for s, o in zip(student.nodes, ours.nodes)
               if isinstance(s, schema.ValueNode) and isinstance(o, schema.ValueNode) and s.name is not None)


def _marked(raw: dict[str, Any], position: int) -> dict[str, Any]:
    nodes = [dict(n, marked=True) if i == position else n for i, n in enumerate(raw["nodes"])]
    return {**raw, "nodes": nodes}


def draw(exercise_id: str, graph: Any, directory: Path, formats: tuple[str, ...]) -> Drawing:
    """The pictures beside a build-track stage's ``graph.svg`` (the child's graph dict, as the
    student's engine showed it through the protocol), and a note on each; nothing for any
    other exercise, or when the graph cannot be read."""
    ours = reference(exercise_id)
    if ours is None:
        return Drawing()
    try:
        student = schema.validate(graph)
    except ValueError:
        return Drawing()
    position = first_difference(student, schema.validate(ours.graph))
    if position is not None:
        return _difference(graph, position, directory, formats, ours.trace is not None,
                           what_differs(student, schema.validate(ours.graph), position))
    if ours.trace is None:
        return Drawing()
    if not same_numbers(student, schema.validate(ours.graph)):
        return Drawing(note=_("no step-by-step page yet: it replays PyTorch's backward through your graph "
                              "with micrograph's engine, and is drawn once the numbers your graph shows "
                              "are PyTorch's (before that, its numbers would be the answers)"))
    title = _("{id}: PyTorch's backward through your graph, replayed by micrograph's engine", id=directory.name)
    try:
        paths = renderer.render_trace(ours.trace, directory, REPLAY_STEM, title, RENDER_TIMEOUT)
    except Exception:  # noqa: BLE001 - a missing page never changes the grade; graph.svg is there
        return Drawing()
    return Drawing(paths, _("{path}: your graph has PyTorch's nodes, edges and numbers, so this page "
                            "replays PyTorch's backward through it, step by step, with micrograph's "
                            "engine: the order your engine must follow, not a record of what yours did",
                            path=paths[0])) if paths else Drawing()


def _difference(graph: dict[str, Any], position: int, directory: Path, formats: tuple[str, ...],
                replayable: bool, differs: str | None) -> Drawing:
    try:
        paths = renderer.render(_marked(graph, position), directory, DIFFERENCE_STEM, formats, RENDER_TIMEOUT)
    except Exception:  # noqa: BLE001 - the diagram never breaks the grade
        paths = []
    shown = [p for p in paths if not p.endswith(".gv")] or paths
    notes = [_("{path}: the graph your engine recorded; the first node where its shape differs from "
               "PyTorch's graph of the same program has a thick blue border", path=shown[0])] if shown else []
    if shown and differs is not None:
        notes[0] += _(" ({difference})", difference=differs)
    if replayable:
        notes.append(_("no step-by-step page: it replays PyTorch's backward through your graph, and is "
                       "drawn once your graph has PyTorch's nodes and edges"))
    return Drawing(paths, _("; ").join(notes) or None)  # two notes, each without a full stop
