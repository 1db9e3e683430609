"""graph_json: what the diagram knows about a graph, read without side effects."""

from __future__ import annotations

import json
import sys
import warnings
from typing import Any

import pytest

import micrograph as mg
from micrograph import Value
from micrograph.viz import graph_json


def by_name(graph: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["name"]: n for n in graph["nodes"] if n.get("name")}


def ops(graph: dict[str, Any]) -> list[dict[str, Any]]:
    return [n for n in graph["nodes"] if n["kind"] == "op"]


def test_documents_graph_forward(doc) -> None:
    g = doc()
    graph = graph_json(g["y"], names=g)
    named = by_name(graph)
    assert {k: (v["role"], v["data"], v["grad"]) for k, v in named.items()} == {
        "y": ("output", 6.0, None),
        "a": ("intermediate", 3.0, None),
        "b": ("intermediate", 2.0, None),
        "w": ("leaf", 1.0, None),
        "x": ("leaf", 2.0, None),
    }
    assert [o["op"] for o in ops(graph)] == ["MulBackward0", "AddBackward0", "AddBackward0"]
    ids = {n["id"]: n for n in graph["nodes"]}
    # Forward direction: y's op points at y; a and b point at y's op, in input order.
    mul = next(o["id"] for o in ops(graph) if o["op"] == "MulBackward0")
    assert [e["from"] for e in graph["edges"] if e["to"] == mul] == [named["a"]["id"], named["b"]["id"]]
    assert {"from": mul, "to": named["y"]["id"]} in graph["edges"]
    # w + 1: the number is an input that does not require grad, drawn as a constant.
    consts = [n for n in ids.values() if n.get("role") == "const"]
    assert len(consts) == 1 and consts[0]["data"] is None
    assert graph["omitted"] == 0 and graph["truncated"] is False
    assert json.loads(json.dumps(graph, allow_nan=False)) == graph


def test_same_graph_same_json(doc) -> None:
    g1, g2 = doc(), doc()
    assert graph_json(g1["y"], names=g1) == graph_json(g2["y"], names=g2)


def test_grads_after_backward_none_for_non_leaves(doc) -> None:
    g = doc()
    g["y"].backward()
    named = by_name(graph_json(g["y"], names=g))
    assert (named["w"]["grad"], named["x"]["grad"]) == (5.0, 2.0)
    assert named["a"]["grad"] is None and named["b"]["grad"] is None and named["y"]["grad"] is None


def test_retain_grad_keeps_the_non_leaf_grad(doc) -> None:
    g = doc()
    g["a"].retain_grad()
    g["y"].backward()
    named = by_name(graph_json(g["y"], names=g))
    assert (named["a"]["role"], named["a"]["grad"]) == ("retained", 2.0)
    assert (named["b"]["role"], named["b"]["grad"]) == ("intermediate", None)


def test_a_zero_grad_is_zero_not_none() -> None:
    w = Value(3.0, requires_grad=True)
    y = w * 0.0
    y.backward()
    assert by_name(graph_json(y, names={"w": w}))["w"]["grad"] == 0.0


def test_freed_nodes_are_marked(doc) -> None:
    g = doc()
    g["y"].backward(retain_graph=True)
    assert not any(o["freed"] for o in ops(graph_json(g["y"])))
    g["y"].backward()
    freed = {o["op"]: o["freed"] for o in ops(graph_json(g["y"]))}
    assert freed == {"MulBackward0": True, "AddBackward0": False}  # add saves nothing: nothing to free
    mul = ops(graph_json(g["y"]))[0]
    assert [(s["slot"], s["data"]) for s in mul["saved"]] == [("_saved_self", None), ("_saved_other", None)]


def test_saved_values_and_versions(doc) -> None:
    g = doc()
    mul = ops(graph_json(g["y"]))[0]
    assert mul["saved"] == [
        {"slot": "_saved_self", "data": 3.0, "saved_version": 0, "version": 0},
        {"slot": "_saved_other", "data": 2.0, "saved_version": 0, "version": 0},
    ]
    g["b"].add_(1)
    mul = ops(graph_json(g["y"]))[0]
    assert mul["saved"][1] == {"slot": "_saved_other", "data": 3.0, "saved_version": 0, "version": 1}


def test_a_value_changed_in_place_without_a_new_node_is_drawn_with_its_number_now(doc) -> None:
    """Under no_grad an in-place op records no node: a keeps the AddBackward0 that made it, which
    produced 3, but a holds 4, as print(a) shows; a value no variable holds keeps its op's number."""
    g = doc()
    with mg.no_grad():
        g["a"].add_(1)
    assert by_name(graph_json(g["y"], names=g))["a"]["data"] == 4.0
    assert by_name(graph_json(g["y"], names={"b": g["b"]}))["b"]["data"] == 2.0
    unnamed = [n["data"] for n in graph_json(g["y"])["nodes"] if n.get("role") == "intermediate"]
    assert sorted(unnamed) == [2.0, 3.0]  # no Value of a given: its op's number
    g["a"].mul_(2)  # with grad mode on, a new node: y's graph holds the old one, a no longer
    assert sorted(n["data"] for n in graph_json(g["y"], names={"a": g["a"]})["nodes"]
                  if n.get("role") == "intermediate") == [2.0, 3.0]


def test_named_constant_saved_by_its_op() -> None:
    w = Value(2.0, requires_grad=True)
    c = Value(5.0)
    y = w * c
    named = by_name(graph_json(y, names={"w": w, "c": c, "y": y}))
    assert (named["c"]["role"], named["c"]["data"], named["c"]["grad"]) == ("const", 5.0, None)


def test_named_constant_given_as_operand() -> None:
    """An add saves neither input: the Value that needs no grad is drawn where it enters, by its
    name, only when the caller says what the op was made from, and then once."""
    x, w = Value(-3.0, requires_grad=True), Value(0.5)
    a = mg.add(x, w)
    names = {"x": x, "w": w, "a": a}
    alone = graph_json(a, names=names)
    given = graph_json(a, names=names, operands={a.grad_fn: (x, w)})
    add = ops(given)[0]["id"]
    assert [e["from"] for e in given["edges"] if e["to"] == add] == [by_name(given)["x"]["id"], by_name(given)["w"]["id"]]
    assert len(given["nodes"]) == len(alone["nodes"]) - 1  # no nameless constant beside w
    wrong = graph_json(a, names=names, operands={a.grad_fn: (x,)})  # not one Value per input: not used
    assert wrong == alone


def test_leaf_and_constant_roots() -> None:
    w = Value(2.0, requires_grad=True)
    c = Value(5.0)
    graph = graph_json(w, c, names={"w": w, "c": c})
    assert [(n["name"], n["role"]) for n in graph["nodes"]] == [("w", "output"), ("c", "output")]
    assert graph["edges"] == []


def test_reading_has_no_side_effects(doc) -> None:
    g = doc()
    g["y"].backward()
    untouched = Value(1.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reading a non-leaf's .grad would warn
        graph_json(g["y"], untouched, names=g)
    assert untouched._accumulator is None  # no AccumulateGrad made for a leaf that was never used
    assert g["a"]._version == 0 and g["a"]._vc is None  # no version counter created


def test_non_finite_numbers_travel_as_strings() -> None:
    w = Value(0.0, requires_grad=True)
    y = w.log()
    graph = graph_json(y, names={"y": y})
    assert by_name(graph)["y"]["data"] == "-inf"
    json.dumps(graph, allow_nan=False)


def test_long_names_are_cut() -> None:
    w = Value(1.0, requires_grad=True)
    (node,) = graph_json(w, names={"w" * 500: w})["nodes"]
    assert len(node["name"]) <= 60


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda y: graph_json(), TypeError, "at least one Value"),
        (lambda y: graph_json([y]), TypeError, "got list for root 0"),
        (lambda y: graph_json(y, 3.0), TypeError, "got float for root 1"),
        (lambda y: graph_json(y, names=[y]), TypeError, "names must be a dict"),
        (lambda y: graph_json(y, names={1: y}), TypeError, "str -> Value"),
        (lambda y: graph_json(y, names={"y": 1.0}), TypeError, "str -> Value"),
        (lambda y: graph_json(y, max_nodes=0), ValueError, "max_nodes"),
        (lambda y: graph_json(y, max_nodes=True), ValueError, "max_nodes"),
    ],
)
def test_bad_arguments(doc, call, error, message) -> None:
    with pytest.raises(error, match=message):
        call(doc()["y"])


def test_cap_counts_what_was_left_out() -> None:
    x = Value(1.0, requires_grad=True)
    y = x
    for _ in range(100):
        y = y + 1.0  # each op draws as op + value + a constant
    graph = graph_json(y, max_nodes=20)
    drawn = [n for n in graph["nodes"] if n["kind"] != "omitted"]
    assert len(drawn) <= 20
    assert graph["truncated"] and len(drawn) + graph["omitted"] == 3 * 100 + 1
    assert graph["nodes"][-1] == {"id": "omitted", "kind": "omitted"}
    assert sum(e["from"] == "omitted" for e in graph["edges"]) == 1


def test_deep_chain_needs_no_recursion() -> None:
    """A chain twice as deep as Python's recursion limit: a walk that recursed once per op would
    stop at the limit (a million ops work too, in about 7 s here, mostly building the chain)."""
    n = 2 * sys.getrecursionlimit()
    x = Value(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y + 1.0
    graph = graph_json(y, names={"x": x, "y": y})
    drawn = len(graph["nodes"]) - 1
    assert drawn + graph["omitted"] == 3 * n + 1


def test_sum_fan_in() -> None:
    terms = [Value(float(i), requires_grad=True) for i in range(5)]
    s = mg.sum([t * 2.0 for t in terms])
    graph = graph_json(s)
    assert [o["op"] for o in ops(graph)][0] == "SumBackward0"
    assert sum(1 for n in graph["nodes"] if n.get("role") == "leaf") == 5


def test_named_value_without_grad_is_drawn_apart_with_its_name() -> None:
    from micrograph import Value
    from micrograph.viz import graph_json

    w = Value(0.5)  # requires_grad=False: the graph keeps no reference to it
    x = Value(-3.0, requires_grad=True)
    y = w + x
    g = graph_json(y, names={"w": w, "x": x, "y": y})
    named = {n["name"]: n for n in g["nodes"] if n.get("kind") == "value" and n.get("name")}
    assert named["w"]["role"] == "const" and named["w"]["data"] == 0.5
    assert not any(e["from"] == named["w"]["id"] for e in g["edges"])


def test_a_layer_node_draws_at_most_max_saved_items_the_stale_first() -> None:
    """nn.Linear's one node saves a whole row's operands: the drawing keeps MAX_SAVED of them, those
    changed in place since they were saved first, so the schema a child's graph passes accepts it."""
    from micrograph.viz.graph_format import MAX_SAVED
    from micrograph.viz.schema import validate

    layer = mg.nn.Linear(16, 16)
    x = [Value(float(i), requires_grad=True) * 1.0 for i in range(16)]
    out = layer(x)
    x[12].add_(1.0)  # saved by the layer's node, now at another version
    graph = graph_json(out[0])
    (layer_op,) = [n for n in ops(graph) if n["op"] == "AddmmBackward0"]
    assert len(layer_op["saved"]) == MAX_SAVED
    first = layer_op["saved"][0]
    assert first["version"] != first["saved_version"]
    assert all(s["version"] == s["saved_version"] for s in layer_op["saved"][1:])
    validate(graph)


def test_a_where_node_saves_its_condition_as_a_bool_the_schema_takes() -> None:
    """where() saves its condition, a comparison's bool (as torch's _saved_condition): the graph a
    child sends carries it as JSON true/false, and the drawing says True or False."""
    from micrograph.viz.dot import number
    from micrograph.viz.schema import validate

    x = Value(0.5, requires_grad=True)
    y = mg.where(x > 0, x * 2.0, x * 0.0)
    graph = json.loads(json.dumps(graph_json(y)))
    (where,) = [n for n in ops(graph) if n["op"] == "WhereBackward0"]
    assert [s["data"] for s in where["saved"]] == [True]
    (saved,) = [n for n in validate(graph).nodes if getattr(n, "op", None) == "WhereBackward0"][0].saved
    assert saved.data is True and number(saved.data) == "True"


def test_each_output_of_a_layer_is_a_value_of_its_own() -> None:
    """A layer's node makes one output per entry: each entry is drawn once, with its own number, made
    by the one op and feeding the sum once, not one box holding the first entry's number for all."""
    mg.manual_seed(3)
    net = mg.nn.Linear(2, 3)
    row = net([[Value(0.5, requires_grad=True), Value(-1.0, requires_grad=True)]])[0]
    loss = mg.sum(row[1:])  # the first entry left out: its box is the op's, feeding nothing
    names = {f"output[0][{j}]": v for j, v in enumerate(row)}
    graph = graph_json(loss, names=names)
    named = by_name(graph)
    assert [named[n]["data"] for n in names] == [v.item() for v in row]
    layer = next(o["id"] for o in ops(graph) if o["op"] == "AddmmBackward0")
    total = next(o["id"] for o in ops(graph) if o["op"] == "SumBackward0")
    assert [e["from"] for e in graph["edges"] if e["to"] == total] == [named["output[0][1]"]["id"],
                                                                      named["output[0][2]"]["id"]]
    assert all({"from": layer, "to": named[n]["id"]} in graph["edges"] for n in names)
