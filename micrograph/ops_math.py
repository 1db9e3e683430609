"""The op table, continued: the math functions, one class each, declared as in ``ops.py``.

``reciprocal``, ``exp``, ``log``, ``sqrt``, ``sin``, ``cos``, ``tanh``,
``sigmoid``, ``relu``, ``abs`` and ``sgn`` take one input and no constant.
Each says, as an ``ops.py`` op does, its ``forward`` (a float in, a float
out, IEEE results), what it ``saves`` (its input ``a`` or its result ``out``,
exactly what torch's node saves) and its ``backward`` (torch's formula, on
floats in a plain backward and on Values under ``create_graph``).  They live
apart from the operators only to keep each module short; ``ops.py`` holds the
helpers for formulas that run on floats and on Values alike.
"""

from __future__ import annotations

import math
from typing import Any

from micrograph import ieee
from micrograph.node import Grad
from micrograph.ops import UnaryOp, div, scaled, zero


def _sin(x: Any) -> Any:
    return ieee.sin(x) if type(x) is float else x.sin()


def _cos(x: Any) -> Any:
    return ieee.cos(x) if type(x) is float else x.cos()


class ReciprocalBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(lambda a: ieee.div(1.0, a))

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        return (-g * (out * out),)


class ExpBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(ieee.exp)

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        return (g * out,)


class LogBackward0(UnaryOp):
    __slots__ = ()
    saves = ("a",)
    forward = staticmethod(ieee.log)

    @staticmethod
    def backward(g: Grad, a: Any) -> tuple[Grad, ...]:
        return (div(g, a),)


class SqrtBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(ieee.sqrt)

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        return (div(g, scaled(out, 2.0)),)  # torch: grad / (2 * result)


class SinBackward0(UnaryOp):
    __slots__ = ()
    saves = ("a",)
    forward = staticmethod(ieee.sin)

    @staticmethod
    def backward(g: Grad, a: Any) -> tuple[Grad, ...]:
        return (g * _cos(a),)


class CosBackward0(UnaryOp):
    __slots__ = ()
    saves = ("a",)
    forward = staticmethod(ieee.cos)

    @staticmethod
    def backward(g: Grad, a: Any) -> tuple[Grad, ...]:
        return (g * -_sin(a),)


class TanhBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(math.tanh)

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        if type(out) is float:
            return (g * ieee.one_minus_square(out),)
        return (out._tanh_backward(g),)  # recorded as its own node, TanhBackwardBackward0


class SigmoidBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(ieee.sigmoid)

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        if type(out) is float:
            return (g * (1.0 - out) * out,)
        return (out._sigmoid_backward(g),)  # SigmoidBackwardBackward0


class ReluBackward0(UnaryOp):
    __slots__ = ()
    saves = ("out",)
    forward = staticmethod(ieee.relu)

    @staticmethod
    def backward(g: Grad, out: Any) -> tuple[Grad, ...]:
        if type(out) is float:
            return (0.0 if out <= 0.0 else g,)  # relu'(0) = 0; nan passes g
        return (out._threshold_backward(g),)  # ThresholdBackwardBackward0: a zero second derivative


class AbsBackward0(UnaryOp):
    __slots__ = ()
    saves = ("a",)
    forward = staticmethod(abs)

    @staticmethod
    def backward(g: Grad, a: Any) -> tuple[Grad, ...]:
        return (g * (ieee.sign(a) if type(a) is float else a.sgn()),)


class SgnBackward0(UnaryOp):
    """The sign (-1, 0 or 1), whose derivative is 0: what abs and relu backward multiply by."""

    __slots__ = ()
    forward = staticmethod(ieee.sign)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (zero(g),)
