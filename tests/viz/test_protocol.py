"""Diagrams of an engine micrograph did not build, read through PyTorch's public names
(``micrograph.viz.protocol``): the build track's reference engine, and objects that fail."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from micrograph.viz import graph_json
from micrograph.viz.dot import build
from micrograph.viz.schema import validate

ROOT = Path(__file__).resolve().parents[2]


def _engine() -> ModuleType:
    """The build track's last stage: an engine of its own, with PyTorch's public names."""
    spec = importlib.util.spec_from_file_location("protocol_engine", ROOT / "solutions" / "ex22_build_no_grad_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documents_graph_of_another_engine_is_drawn_through_the_protocol():
    e = _engine()
    w, x = e.Value(1.0, requires_grad=True), e.Value(2.0, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    a.retain_grad()
    y.backward()
    graph = graph_json(y, names={"w": w, "x": x, "a": a, "b": b, "y": y})
    values = {n["name"]: n for n in graph["nodes"] if n["kind"] == "value"}
    assert [n["op"] for n in graph["nodes"] if n["kind"] == "op"] == ["MulBackward0", "AddBackward0", "AddBackward0"]
    assert (values["w"]["role"], values["w"]["data"], values["w"]["grad"]) == ("leaf", 1.0, 5.0)
    assert (values["a"]["role"], values["a"]["grad"]) == ("retained", 2.0)
    assert (values["b"]["role"], values["b"]["grad"]) == ("intermediate", None)
    assert (values["y"]["role"], values["y"]["data"]) == ("output", 6.0)
    assert (values[None]["role"], values[None]["data"]) == ("const", None)  # w + 1: the 1 is not readable
    assert len(graph["edges"]) == 9 and graph["omitted"] == 0


def test_an_accumulate_grad_of_a_constant_is_drawn_as_the_node_it_is():
    """An engine whose gradient_edge gives a constant an AccumulateGrad (PyTorch gives it none):
    the node is drawn, fed by the constant drawn as a constant (never as a non-leaf the node
    made, nor hidden as a plain constant input), and the legend says what the node is."""
    e = _engine()
    w = e.Value(1.0, requires_grad=True)
    one = e.Value(3.0)
    b = w + one
    b.grad_fn.next_functions = (b.grad_fn.next_functions[0], (e.AccumulateGrad(one), 0))
    graph = graph_json(b, names={"w": w, "b": b})
    ops = {n["op"]: n["id"] for n in graph["nodes"] if n["kind"] == "op"}
    assert list(ops) == ["AddBackward0", "torch::autograd::AccumulateGrad"]
    constant = [n for n in graph["nodes"] if n["kind"] == "value" and n["name"] is None]
    assert [(n["role"], n["data"]) for n in constant] == [("const", 3.0)]
    edges = {(edge["from"], edge["to"]) for edge in graph["edges"]}
    accumulate = ops["torch::autograd::AccumulateGrad"]
    assert {(constant[0]["id"], accumulate), (accumulate, ops["AddBackward0"])} <= edges
    assert "AccumulateGrad of the value below it, which requires no grad" in build(validate(graph)).source


def test_an_unnamed_intermediate_has_no_number_and_the_cap_holds():
    e = _engine()
    w = e.Value(0.5, requires_grad=True)
    v = w
    for _ in range(50):
        v = v * 1.0 + w
    graph = graph_json(v, max_nodes=10)
    data = [n["data"] for n in graph["nodes"] if n["kind"] == "value" and n["role"] == "intermediate"]
    assert data and all(d is None for d in data)
    assert graph["truncated"] and graph["omitted"] > 0


class _Broken:
    """A value whose every read but grad_fn raises, and whose node's name() is not a str."""

    requires_grad = True

    @property
    def grad_fn(self):
        return _BrokenNode()

    @property
    def data(self):
        raise RuntimeError("no data")

    @property
    def grad(self):
        raise RuntimeError("no grad")


class _BrokenNode:
    next_functions = ((None, 0), "not a pair")

    def name(self):
        return 42


def test_objects_that_fail_every_read_are_drawn_without_raising():
    graph = graph_json(_Broken())
    assert [n["op"] for n in graph["nodes"] if n["kind"] == "op"] == ["_BrokenNode"]
    assert next(n for n in graph["nodes"] if n["kind"] == "value")["data"] is None


def test_something_that_is_no_value_is_still_refused():
    with pytest.raises(TypeError, match="graph_json\\(\\) draws Values"):
        graph_json(3.0)
