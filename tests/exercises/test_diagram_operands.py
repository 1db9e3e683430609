"""graph.svg drawn after the backward pass that freed what its nodes saved: an input that needs no
grad, which a node saved (``b = w.detach() + 1``, y's other factor), is drawn as the Value the
student made, named and with its number, where the freed node alone left a nameless constant with
no number (and a named b apart from the graph)."""

import importlib.util
import sys

import pytest
from exercise_grading import solution_path
from grader.course import catalog
from micrograph.viz import graph_json


def _load(name: str, path, source: str | None = None):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source if source is not None else path.read_text(encoding="utf-8"), str(path), "exec"),
         module.__dict__)
    return module


@pytest.mark.parametrize("exercise_id", ["ex01", "ex03", "ex04"])
def test_a_freed_input_that_needs_no_grad_is_drawn_as_the_value_named(exercise_id):
    hidden = _load(f"{exercise_id}_hidden_drawn", catalog.load(exercise_id).path)
    path = solution_path(exercise_id)
    source = path.read_text(encoding="utf-8")
    assert "micrograph.add(w_leaf, 1)" in source
    detached = _load(f"{exercise_id}_detached_b", path,
                     source.replace("micrograph.add(w_leaf, 1)", "micrograph.add(w_leaf.detach(), 1)"))
    roots, names, operands = hidden.EXERCISE.diagram_probe(detached)
    assert roots[0].grad_fn.saved_released  # drawn after the backward that freed y's node
    graph = graph_json(*roots, names=names, operands=operands)
    constants = [node for node in graph["nodes"] if node.get("role") == "const"]
    assert [(node["name"], node["data"]) for node in constants] == [("b", names["b"].item())]
    assert {"from": constants[0]["id"], "to": "f0"} in graph["edges"]  # an input of y's MulBackward0


@pytest.mark.parametrize(("exercise_id", "number"), [("ex06", 1.5), ("ex08", 1.5)])
def test_a_freed_unnamed_input_is_drawn_with_its_number(exercise_id, number):
    """ex06's b = w + 1 of a w that needs no grad, ex08's w_cut.detach(): each saved by a product
    that backward freed, drawn with the number it holds, not as a constant with none."""
    hidden = _load(f"{exercise_id}_hidden_drawn", catalog.load(exercise_id).path)
    roots, names, operands = hidden.EXERCISE.diagram_probe(_load(f"{exercise_id}_solution", solution_path(exercise_id)))
    graph = graph_json(*roots, names=names, operands=operands)
    products = {node["id"] for node in graph["nodes"] if node.get("op") == "MulBackward0" and node["freed"]}
    fed = {edge["from"] for edge in graph["edges"] if edge["to"] in products}
    constants = [node["data"] for node in graph["nodes"] if node["id"] in fed and node.get("role") == "const"]
    assert constants == [number]


def test_a_layers_inputs_are_drawn_as_the_values_named():
    """ex15: the layer's node saved x0 and x1 and backward freed them; each is drawn as itself, an
    input of that node, where a nameless constant stood for it and x0, x1 stood apart."""
    hidden = _load("ex15_hidden_drawn", catalog.load("ex15").path)
    roots, names, operands = hidden.EXERCISE.diagram_probe(_load("ex15_solution", solution_path("ex15")))
    graph = graph_json(*roots, names=names, operands=operands)
    layer = {node["id"] for node in graph["nodes"] if node.get("op") == "AddmmBackward0"}
    constants = {node["id"]: node["name"] for node in graph["nodes"] if node.get("role") == "const"}
    fed = [constants[edge["from"]] for edge in graph["edges"] if edge["to"] in layer and edge["from"] in constants]
    assert sorted(fed) == sorted(constants.values()) == ["x0", "x1"]
