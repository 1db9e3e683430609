"""The build track's pictures beside graph.svg: the student's graph (read through the protocol)
against micrograph's graph of the same program, and PyTorch's backward replayed through it only
when the student's graph already shows micrograph's shape and numbers."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from types import ModuleType

from micrograph.i18n import using
from micrograph.viz import graph_json, schema

from grader.judge import replayed
from grader.judge.diagram import REPLAY_STEM
from grader.spec.build import documents_graph

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


def _engine(stem: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"engine_{stem}", SOLUTIONS / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _student_graph(stem: str, stage: int) -> dict:
    """The documents' graph as the reference solution of a stage builds it, read through the
    protocol, as the grader's child reads a student's engine."""
    roots, names = documents_graph(_engine(stem), stage)
    return graph_json(*roots, names=names)


def test_only_the_build_track_has_a_reference():
    assert replayed.reference("ex03") is None
    assert replayed.reference("ex16").trace is None  # ex16's program runs no backward
    assert replayed.reference("ex17").trace is not None


def test_the_solution_s_graph_has_micrograph_s_shape_and_numbers():
    student = schema.validate(_student_graph("ex18_build_retain_grad", 3))
    ours = schema.validate(replayed.reference("ex18").graph)
    assert replayed.first_difference(student, ours) is None
    assert replayed.same_numbers(student, ours)


def test_inputs_in_another_order_mark_the_first_node_that_differs():
    raw = _student_graph("ex17_build_backward", 2)
    product = next(n["id"] for n in raw["nodes"] if n.get("op") == "MulBackward0")
    into = [e for e in raw["edges"] if e["to"] == product]
    others = [e for e in raw["edges"] if e["to"] != product]
    swapped = {**raw, "edges": [*reversed(into), *others]}
    ours = schema.validate(replayed.reference("ex17").graph)
    assert replayed.first_difference(schema.validate(swapped), ours) == 1  # the product: its inputs differ
    renamed = copy.deepcopy(raw)
    next(n for n in renamed["nodes"] if n.get("op") == "MulBackward0")["op"] = "AddBackward0"
    assert replayed.first_difference(schema.validate(renamed), ours) == 1


def test_a_gradient_kept_on_an_intermediate_is_not_micrograph_s_numbers():
    raw = _student_graph("ex17_build_backward", 2)
    next(n for n in raw["nodes"] if n.get("name") == "b")["grad"] = 1.0
    ours = schema.validate(replayed.reference("ex17").graph)
    assert replayed.first_difference(schema.validate(raw), ours) is None
    assert not replayed.same_numbers(schema.validate(raw), ours)


def test_the_page_is_drawn_and_says_it_is_a_replay(tmp_path: Path):
    folder = tmp_path / "ex17"
    drawing = replayed.draw("ex17", _student_graph("ex17_build_backward", 2), folder, ("svg",))
    page = folder / f"{REPLAY_STEM}.html"
    assert drawing.paths == [str(page)], drawing
    assert "replayed by micrograph" in page.read_text(encoding="utf-8")
    assert "not a record of what yours did" in drawing.note


def test_no_page_while_the_numbers_differ(tmp_path: Path):
    raw = _student_graph("ex17_build_backward", 2)
    next(n for n in raw["nodes"] if n.get("name") == "w")["grad"] = 7.0
    drawing = replayed.draw("ex17", raw, tmp_path / "ex17", ("svg",))
    assert drawing.paths == [] and "numbers your graph shows are PyTorch's" in drawing.note


def test_leaves_met_in_another_order_mark_the_op_that_takes_them():
    """a = w + x where the documents have x + w: the walk meets w where micrograph's meets x, yet
    w is no different; a's AddBackward0, whose inputs come in another order, is the node marked,
    and the note says so."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = w + x, w + 1
    y = a * b
    student = schema.validate(graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y}))
    ours = schema.validate(replayed.reference("ex16").graph)
    position = replayed.first_difference(student, ours)
    assert getattr(student.nodes[position], "op", None) == "AddBackward0"
    assert replayed.what_differs(student, ours, position) == \
        "the inputs of a.grad_fn (AddBackward0) come in another order than in PyTorch's graph"


def test_a_value_of_another_role_is_said_in_the_note(tmp_path: Path):
    """A retained a drawn as a non-leaf that does not retain its grad (retains_grad left False):
    the white box holds a grad, and the note says which role differs."""
    raw = _student_graph("ex18_build_retain_grad", 3)
    next(n for n in raw["nodes"] if n.get("name") == "a")["role"] = "intermediate"
    drawing = replayed.draw("ex18", raw, tmp_path / "ex18", ("svg",))
    assert "(a is a non-leaf that does not retain its grad in your graph, a non-leaf that retains its grad " \
           "in PyTorch's)" in drawing.note, drawing.note


def test_an_input_left_out_is_said_as_fewer_inputs_not_another_order():
    """b = w + 1 whose node leaves out the constant's edge: b's AddBackward0 is marked, and the
    note says it has fewer inputs, not that they come in another order."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    b.grad_fn.next_functions = b.grad_fn.next_functions[:1]
    y = a * b
    student = schema.validate(graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y}))
    ours = schema.validate(replayed.reference("ex16").graph)
    position = replayed.first_difference(student, ours)
    assert replayed.what_differs(student, ours, position) == \
        "b.grad_fn (AddBackward0) has fewer inputs than in PyTorch's graph"


def test_an_edge_to_another_output_is_said_as_that_not_another_order():
    """y = a * b whose node's edges name output 1 of a's and b's nodes (gradient_edge giving
    (grad_fn, 1)): the inputs come in PyTorch's order, but as unnamed values; the note says the
    edges lead to another output, not that the inputs come in another order."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    y = a * b
    y.grad_fn.next_functions = tuple((node, 1) for node, _ in y.grad_fn.next_functions)
    student = schema.validate(graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y}))
    ours = schema.validate(replayed.reference("ex16").graph)
    position = replayed.first_difference(student, ours)
    assert replayed.what_differs(student, ours, position) == \
        "the edges into y.grad_fn (MulBackward0) lead to another output of the node they come from than in " \
        "PyTorch's graph: an unnamed value stands where PyTorch's has a"


def test_a_constant_in_a_named_value_s_place_is_marked_and_said(tmp_path: Path):
    """y = a * Value(b) (an operand copied into a new Value that requires no grad): the constant
    stands where PyTorch's graph has b; it is the node marked, drawn with the legend's solid
    blue border (not its dashed grey one), and the note says which entry holds no node there."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    y = a * engine.Value(b.item())
    raw = graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y})
    drawing = replayed.draw("ex16", raw, tmp_path / "ex16", ("svg",))
    assert "(where PyTorch's graph has b, a non-leaf that does not retain its grad, an entry of next_functions in " \
           "yours holds no node (None), drawn as a constant)" in drawing.note, drawing.note
    source = (tmp_path / "ex16" / "difference.gv").read_text(encoding="utf-8")
    marked = next(line for line in source.splitlines() if "color=blue3" in line and "constant" in line)
    assert "penwidth=4" in marked and "dashed" not in marked


def test_a_node_given_without_its_input_number_is_drawn_and_said_as_that(tmp_path: Path):
    """A node whose next_functions holds a bare node (gradient_edge's node without its 0): the
    entry is drawn as that node given alone, never as a constant that requires no grad, and the
    note says which node holds it."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    y = a * b
    y.grad_fn.next_functions = tuple(node for node, _ in y.grad_fn.next_functions)
    raw = graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y})
    assert [(n["role"], n["name"]) for n in raw["nodes"] if n["kind"] == "value"][1:] == \
        [("bare", "AddBackward0"), ("bare", "AddBackward0")]
    drawing = replayed.draw("ex16", raw, tmp_path / "ex16", ("svg",))
    assert "(y.grad_fn (MulBackward0) holds the node AddBackward0 in its next_functions without its input " \
           "number, where PyTorch's graph has a (node, input_nr) pair)" in drawing.note, drawing.note
    source = (tmp_path / "ex16" / "difference.gv").read_text(encoding="utf-8")
    assert "given without its input number" in source
    assert "constant" not in source and "requires_grad=False" not in source


def test_a_bare_none_for_a_constant_is_said_as_that():
    """b = w + 1 whose node holds None for the 1, not (None, 0): the note names the bare None."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    b.grad_fn.next_functions = (b.grad_fn.next_functions[0], None)
    y = a * b
    student = schema.validate(graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y}))
    ours = schema.validate(replayed.reference("ex16").graph)
    position = replayed.first_difference(student, ours)
    assert student.nodes[position].role == "unpaired"
    assert replayed.what_differs(student, ours, position) == \
        "b.grad_fn (AddBackward0) holds a bare None in its next_functions, where PyTorch's graph has a " \
        "(node, input_nr) pair"


def test_a_leaf_held_itself_in_two_nodes_is_drawn_once():
    """gradient_edge giving a leaf (the leaf itself, 0): w is an input of a and of b, so two entries
    hold the one Value w; it is drawn once, with an edge to each node, as its AccumulateGrad would be."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    a.grad_fn.next_functions = ((x, 0), (w, 0))
    b.grad_fn.next_functions = ((w, 0), b.grad_fn.next_functions[1])
    raw = graph_json(a * b, names={"w": w, "x": x, "a": a, "b": b})
    entries = [n["id"] for n in raw["nodes"] if n["kind"] == "value" and n["role"] == "value_entry" and n["name"] == "w"]
    assert len(entries) == 1, raw["nodes"]
    assert sum(edge["from"] == entries[0] for edge in raw["edges"]) == 2


def test_a_leaf_reached_through_two_accumulators_shows_both():
    """gradient_edge making a new AccumulateGrad at each call: w under a and under b reaches two
    nodes, each drawn as an op of its own above w (not one box for both), and the note says so."""
    engine = _engine("ex16_build_value")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a, b = x + w, w + 1
    other = engine.AccumulateGrad(w)
    b.grad_fn.next_functions = ((other, 0), b.grad_fn.next_functions[1])
    y = a * b
    raw = graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y})
    accumulators = [n["id"] for n in raw["nodes"] if n["kind"] == "op" and n["op"].endswith("AccumulateGrad")]
    assert len(accumulators) == 2, raw["nodes"]
    leaf = next(n["id"] for n in raw["nodes"] if n.get("name") == "w")
    assert sorted(e["to"] for e in raw["edges"] if e["from"] == leaf) == sorted(accumulators)
    student, ours = schema.validate(raw), schema.validate(replayed.reference("ex16").graph)
    position = replayed.first_difference(student, ours)
    note = replayed.what_differs(student, ours, position)
    assert note == "w reaches a.grad_fn (AddBackward0) through an AccumulateGrad node of its own: your graph has " \
        "more than one AccumulateGrad node for w, where PyTorch's has one, drawn as w itself"
    with using("zh"):
        chinese = replayed.what_differs(student, ours, position)
    assert "个 AccumulateGrad" in chinese and not any(c.isdigit() for c in (note + chinese).replace("Backward0", ""))


def test_a_retains_grad_true_as_an_if_reads_it_is_drawn_retained():
    """retains_grad = 1 where PyTorch's is True: the engine's `not self.retains_grad` keeps a's
    gradient, and the drawing reads it the same way, not as a non-leaf that does not retain it."""
    engine = _engine("ex18_build_retain_grad")
    w, x = engine.Value(0.5, requires_grad=True), engine.Value(-3.0, requires_grad=True)
    a = x + w
    a.retain_grad()
    a.retains_grad = 1
    y = a * (w + 1)
    y.backward()
    roles = {n.get("name"): n["role"] for n in graph_json(y, names={"a": a, "y": y})["nodes"] if n["kind"] == "value"}
    assert roles["a"] == "retained"
