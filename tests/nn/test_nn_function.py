"""micrograph.Function: the shared program against torch, and what only micrograph can show."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from nn_expected import assert_observations, load
from nn_programs import Lib, function_program

import micrograph as mg
from micrograph.node import SECOND_BACKWARD


def test_function_program_matches_torch() -> None:
    assert_observations(function_program(Lib("micrograph")), load("function"))


class Cube(mg.Function):
    @staticmethod
    def forward(ctx: Any, x: mg.Value) -> mg.Value:
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx: Any, g: mg.Value) -> mg.Value:
        (x,) = ctx.saved_tensors
        return g * 3.0 * x * x


def test_saved_tensors_and_no_other_name() -> None:
    x = mg.Value(2.0, requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.saved_tensors == (x,)
    assert not hasattr(y.grad_fn, "saved_values")  # torch has no such name: AttributeError
    assert y.item() == 8.0 and y.grad_fn.output_data() == 8.0  # the number a diagram shows
    y.backward()
    assert x.grad.item() == 12.0
    with pytest.raises(RuntimeError) as err:
        y.grad_fn.saved_tensors
    assert str(err.value) == SECOND_BACKWARD
    assert y.grad_fn.saved_released


def test_the_graph_dies_with_its_output() -> None:
    """No reference cycle: node and saved values go as soon as the output goes (no gc needed)."""
    gc.disable()
    try:
        x = mg.Value(2.0, requires_grad=True)
        y = Cube.apply(x)
        node = weakref.ref(y.grad_fn)
        del y
        assert node() is None
    finally:
        gc.enable()


def test_none_for_an_input_that_requires_grad_sends_no_gradient() -> None:
    """As torch: a None gradient adds nothing, and a leaf reached only that way keeps grad None."""

    class Stop(mg.Function):
        @staticmethod
        def forward(ctx: Any, x: mg.Value) -> mg.Value:
            return x * 2.0

        @staticmethod
        def backward(ctx: Any, g: mg.Value) -> None:
            return None

    x = mg.Value(1.0, requires_grad=True)
    (Stop.apply(x) + x).backward()
    assert x.grad.item() == 1.0  # as torch: the other path's gradient
    z = mg.Value(1.0, requires_grad=True)
    Stop.apply(z).backward()
    assert z.grad is None


def test_a_number_from_forward_comes_back_unrecorded() -> None:
    class Number(mg.Function):  # torch returns forward's non-tensor result as it is
        @staticmethod
        def forward(ctx: Any, x: mg.Value) -> float:
            return 3.0

    assert Number.apply(mg.Value(1.0, requires_grad=True)) == 3.0


def test_a_tuple_from_forward_gives_outputs_of_one_node() -> None:
    """Both outputs share one grad_fn, numbered 0 and 1; backward gets a gradient for each
    (zeros for the output no gradient reached); torch's programs: tests/parity/programs/100-102."""
    seen = []

    class Two(mg.Function):
        @staticmethod
        def forward(ctx: Any, x: mg.Value) -> tuple[mg.Value, mg.Value]:
            return x * 2, x * 3

        @staticmethod
        def backward(ctx: Any, g2: mg.Value, g3: mg.Value) -> mg.Value:
            seen.append((g2.item(), g3.item()))
            return g2 * 2 + g3 * 3

    x = mg.Value(1.0, requires_grad=True)
    a, b = Two.apply(x)
    assert a.grad_fn is b.grad_fn and (a.output_nr, b.output_nr) == (0, 1)
    assert (a * b).grad_fn.next_functions == ((a.grad_fn, 0), (a.grad_fn, 1))
    b.backward()
    assert seen == [(0.0, 1.0)] and x.grad.item() == 3.0


def test_apply_needs_a_subclass() -> None:
    with pytest.raises(NotImplementedError, match="You must implement the forward function"):  # torch's base forward
        mg.Function.apply(mg.Value(1.0))


def test_returning_an_input_gives_a_new_output() -> None:
    class Identity(mg.Function):
        @staticmethod
        def forward(ctx: Any, x: mg.Value) -> mg.Value:
            return x

        @staticmethod
        def backward(ctx: Any, g: mg.Value) -> mg.Value:
            return g

    x = mg.Value(1.0, requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and x.is_leaf and y.grad_fn.name() == "IdentityBackward"


def test_ctx_notes_and_numbers_among_the_arguments() -> None:
    class Scale(mg.Function):
        @staticmethod
        def forward(ctx: Any, x: mg.Value, k: float) -> mg.Value:
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx: Any, g: mg.Value) -> tuple[mg.Value, None]:
            return g * ctx.k, None

    x = mg.Value(1.0, requires_grad=True)
    y = Scale.apply(x, 4.0)
    assert len(y.grad_fn.next_functions) == 1  # a number is no input of the graph
    y.backward()
    assert x.grad.item() == 4.0


def test_a_function_that_saved_nothing_is_not_marked_freed() -> None:
    class Double(mg.Function):
        @staticmethod
        def forward(ctx: Any, x: mg.Value) -> mg.Value:
            return x * 2.0

        @staticmethod
        def backward(ctx: Any, g: mg.Value) -> mg.Value:
            return g * 2.0

    w = mg.Value(1.0, requires_grad=True)
    y = Double.apply(w) + 1
    y.backward()
    assert not y.grad_fn.next_functions[0][0].saved_released
    y.backward()  # nothing saved, nothing freed: a second backward works, as in torch
    assert w.grad.item() == 4.0
