"""The parent's replay of a reported graph (``grader.judge.replay``): numbers a child reports
for a graph must be the ones the parent's own engine makes from the graph's leaves and ops,
wherever the reference's are."""

from __future__ import annotations

import copy
from typing import Any

from micrograph import Value
from grader.judge.replay import replay, unexplained
from grader.spec.graph import graph
from grader.spec.provenance import built, grad_of

DATA, GRAD = "~data", "~grad"


def _observed(backward: bool = True) -> dict[str, Any]:
    """y = (x + w) * (w * x), its graph and named Values, and the leaves' .grad after backward."""
    w, x = Value(0.5, requires_grad=True), Value(-3.0, requires_grad=True)
    a, b = x + w, w * x
    y = a * b
    if backward:
        y.backward()
    names = {"w": w, "x": x, "a": a, "b": b, "y": y}
    return {**built(names, "y", tuple(names), "the probe"), "grads": [grad_of(w, "w.grad"), grad_of(x, "x.grad")]}


def _node(observation: dict[str, Any], name: str) -> dict[str, Any]:
    return next(n for n in observation["graph"]["nodes"] if name in (n.get("name"), n.get("leaf")))


def test_an_honest_graph_replays_to_its_own_numbers() -> None:
    want = _observed()
    done = replay(want["graph"])
    assert True in done.data and False not in done.data
    assert done.grads == {"w": True, "x": True}
    assert unexplained(want, copy.deepcopy(want)) == []


def test_a_node_number_its_inputs_do_not_make_is_named() -> None:
    want, got = _observed(), _observed()
    _node(got, "b")[DATA] = 7.0  # context only: compared, the two still agree
    found = unexplained(want, got)
    assert "y: b" in found and "y: value b" in found  # b's own op, and the VALUE fact of b


def test_a_value_fact_must_say_the_number_its_graph_holds() -> None:
    want, got = _observed(), _observed()
    forged = next(f for f in got["nodes"] if f["label"] == "y")
    forged["data"] = 1.0  # a number the graph does not hold
    assert unexplained(want, got) == ["y: value y"]
    _node(got, "y")[DATA] = 1.0  # ... nor makes: the forger must forge the whole graph
    assert unexplained(want, got) == ["y: y"]


def test_a_gradient_one_backward_does_not_make_is_named() -> None:
    want, got = _observed(), _observed()
    _node(got, "w")[GRAD] = 2.0
    got["grads"][0]["grad"] = 2.0
    assert unexplained(want, got) == ["y: w.grad"]


def test_numbers_the_reference_cannot_vouch_for_are_not_held_against_the_submission() -> None:
    want, got = _observed(backward=False), _observed(backward=False)
    assert replay(want["graph"]).grads == {}  # no backward ran: no gradient to replay
    w, x = Value(0.5, requires_grad=True), Value(-3.0, requires_grad=True)
    y = (x + w) * (w * x)
    w.data = Value(9.0)  # the reference itself changed a leaf after the graph was built
    odd = graph(y, {"w": w, "x": x}, label="y")
    assert False in replay(odd).data
    assert unexplained({"graph": odd}, {"graph": copy.deepcopy(odd)}) == []
    _node(got, "a")[DATA] = "not a number: str"  # unknown, not a difference
    assert unexplained(want, got) == []


def test_a_forged_graph_of_any_shape_is_never_an_error() -> None:
    want = _observed()
    for nodes in ([{"op": "MulBackward0", "in": [5, -1]}], "nodes", [], [{"op": "Sum", "in": [0]}]):
        got = copy.deepcopy(want)
        got["graph"]["nodes"] = nodes
        unexplained(want, got)  # nothing raised
