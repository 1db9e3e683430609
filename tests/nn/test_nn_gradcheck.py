"""micrograph.gradcheck: the shared program against torch, and the numbers in its message."""

from __future__ import annotations

from typing import Any

import pytest
from nn_expected import assert_observations, load
from nn_programs import Lib, gradcheck_program

import micrograph as mg
from micrograph.gradcheck import GradcheckError


def test_gradcheck_program_matches_torch() -> None:
    assert_observations(gradcheck_program(Lib("micrograph")), load("gradcheck"))


class HalfWrongMul(mg.Function):
    """a * b whose backward gives b the gradient meant for a."""

    @staticmethod
    def forward(ctx: Any, a: mg.Value, b: mg.Value) -> mg.Value:
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx: Any, g: mg.Value) -> tuple[mg.Value, mg.Value]:
        a, b = ctx.saved_tensors
        return g * b, g * b


def test_the_message_names_the_input_and_both_numbers() -> None:
    a, b = mg.Value(0.5, requires_grad=True), mg.Value(-1.25, requires_grad=True)
    with pytest.raises(GradcheckError) as err:
        mg.gradcheck(HalfWrongMul.apply, (a, b))
    header, numerical, analytical, _ = str(err.value).split("\n")
    assert header == "Jacobian mismatch for output 0 with respect to input 1,"
    assert float(numerical.removeprefix("numerical:")) == pytest.approx(0.5, abs=1e-9)
    assert analytical == "analytical:-1.25"
    assert isinstance(err.value, RuntimeError)
    assert (a.item(), b.item(), a._version, b._version) == (0.5, -1.25, 0, 0)  # restored, untouched


def test_plain_functions_and_several_outputs() -> None:
    x, y = mg.Value(0.4, requires_grad=True), mg.Value(1.3, requires_grad=True)
    assert mg.gradcheck(lambda a, b: [a * b, (a / b).sin(), [b.sqrt()]], (x, y))
    assert mg.gradcheck(lambda a, k: a ** k, (x, 3.0))  # a number among the inputs is passed through


def test_an_output_that_ignores_the_inputs() -> None:
    x = mg.Value(0.4, requires_grad=True)
    assert mg.gradcheck(lambda a: [a.exp(), mg.Value(2.0)], (x,))


def test_nan_never_passes() -> None:
    x = mg.Value(-1.0, requires_grad=True)
    assert mg.gradcheck(lambda a: a.sqrt(), (x,), raise_exception=False) is False


def test_a_function_that_returns_a_number() -> None:
    with pytest.raises(AttributeError, match="'float' object has no attribute 'requires_grad'"):  # torch's text
        mg.gradcheck(lambda a: 1.0, (mg.Value(1.0, requires_grad=True),))
