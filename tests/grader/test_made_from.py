"""grader.spec.made_from: the Values an op was made from, kept only where its node takes exactly those."""

from __future__ import annotations

from types import SimpleNamespace

import micrograph as mg
from micrograph import Value

from grader.spec.made_from import operands


def _watched(*made: tuple[Value, tuple[Value, ...]]) -> SimpleNamespace:
    """What ``watching(made=True)`` keeps of a call: each Value made, and what it was made from."""
    return SimpleNamespace(probe_made={id(v): v for v, _ in made}, inputs={id(v): inputs for v, inputs in made})


def test_inputs_of_the_node_that_made_the_value() -> None:
    x, w = Value(1.0, requires_grad=True), Value(2.0)
    a = mg.add(x, w)
    assert operands(_watched((a, (x, w)))) == {a.grad_fn: (x, w)}


def test_a_node_an_in_place_op_gave_the_value_since_is_left_out() -> None:
    x, w, c = Value(1.0, requires_grad=True), Value(2.0), Value(3.0)
    a = mg.add(x, w)
    a.add_(c)  # a's grad_fn is now add_'s, whose inputs are a's old node and c
    assert operands(_watched((a, (x, w)))) == {}


def test_an_input_that_now_requires_grad_is_left_out() -> None:
    x, w = Value(1.0, requires_grad=True), Value(2.0)
    a = mg.add(x, w)
    w.requires_grad_()
    assert operands(_watched((a, (x, w)))) == {}
