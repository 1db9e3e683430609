"""What derivative formulas record under ``create_graph``, as torch's do.

torch's backward formulas are themselves differentiable ops, and the nodes they
record are what a student sees when walking ``grad_fn`` of a first derivative:
``TanhBackwardBackward0`` (tanh's derivative is one node of its own, not a
product), ``SigmoidBackwardBackward0``, ``ThresholdBackwardBackward0`` (relu's),
and torch's Scalar overloads for a number inside a formula (``MulBackward1`` in
``exponent * self.pow(exponent - 1)``, ``AddBackward1``, ``SubBackward1``).
``ops.py``'s formulas reach these through ``Value`` methods (``tensor_api.py``).
"""

from __future__ import annotations

from micrograph import ieee
from micrograph.boolean import BoolValue
from micrograph.node import Grad
from micrograph.ops_extra import ExtraOp, number, record, where
from micrograph.value import Value


class MulBackward1(ExtraOp):
    """``v * k`` for a number ``k`` inside a derivative formula (torch's Scalar overload): one edge."""

    __slots__ = ()
    consts = ("other",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        k = self.other  # type: ignore[attr-defined]
        return (grad * k if type(grad) is float else mul_scalar(grad, k),)


class AddBackward1(ExtraOp):
    """``v + k`` for a number ``k`` inside a derivative formula."""

    __slots__ = ()

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (grad,)


class SubBackward1(AddBackward1):
    """``v - k`` for a number ``k`` inside a derivative formula."""

    __slots__ = ()


def mul_scalar(v: Value, k: float) -> Value:
    return record(MulBackward1, (v,), v.item() * k, other=k)


def add_scalar(v: Value, k: float) -> Value:
    return record(AddBackward1, (v,), v.item() + k)


def sub_scalar(v: Value, k: float) -> Value:
    return record(SubBackward1, (v,), v.item() - k)


def where_zero(keep_zero: bool, v: Value) -> Value:
    """torch's ``where(condition, zeros, v)`` in a formula: recorded even where it picks the zero."""
    return where(BoolValue.of(keep_zero), 0.0, v)


class TanhBackwardBackward0(ExtraOp):
    """The recorded derivative of tanh: ``grad_output * (1 - output²)``, a node of its own (as torch's)."""

    __slots__ = ()
    saves = ("grad_output", "output")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        go, out = self.saved(create_graph)
        if type(out) is float:
            return grad * ieee.one_minus_square(out), grad * ((-2.0 * out) * go)
        return tanh_backward(grad, out), grad * (mul_scalar(out, -2.0) * go)


class SigmoidBackwardBackward0(ExtraOp):
    """The recorded derivative of sigmoid: ``grad_output * (1 - output) * output``."""

    __slots__ = ()
    saves = ("grad_output", "output")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        go, out = self.saved(create_graph)
        if type(out) is float:
            return grad * (1.0 - out) * out, (grad * go) * (-2.0 * out + 1.0)
        return sigmoid_backward(grad, out), (grad * go) * add_scalar(mul_scalar(out, -2.0), 1.0)


class ThresholdBackwardBackward0(ExtraOp):
    """The recorded derivative of relu: ``grad_output`` where the result is positive, else 0."""

    __slots__ = ()
    saves = ("self",)
    consts = ("threshold",)
    threshold = 0  # relu is threshold(x, 0, 0): torch shows the Scalar as the int 0

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (out,) = self.saved(create_graph)
        if type(grad) is float:
            return (0.0 if number(out) <= 0.0 else grad), 0.0
        return threshold_backward(grad, out), Value(0.0)  # torch: zeros_like(grad) for the result


def tanh_backward(grad: Value, out: Value) -> Value:
    return record(TanhBackwardBackward0, (grad, out), grad.item() * ieee.one_minus_square(out.item()), (grad, out))


def sigmoid_backward(grad: Value, out: Value) -> Value:
    y = out.item()
    return record(SigmoidBackwardBackward0, (grad, out), grad.item() * (1.0 - y) * y, (grad, out))


def threshold_backward(grad: Value, out: Value) -> Value:
    return record(ThresholdBackwardBackward0, (grad, out), 0.0 if out.item() <= 0.0 else grad.item(), (out,))
