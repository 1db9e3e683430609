"""The op table, continued: the rest of torch's 0-dim tensor math, declared once each.

``clamp``, ``tan``, ``log1p``, ``maximum``/``minimum``, ``where``, ``add``/``sub``
with ``alpha`` and the reductions (``v.sum()``, ``v.prod()``, ``v.amax()`` ...)
take more than two operands or a constant (a bound, ``alpha``, a ``dim``), so
they do not fit ``ops.py``'s two-operand ``forward``/``backward`` pair.  Each
class here is still one op, named as PyTorch names its node, and says what it
saves (``saves``: names of the saved operands, ``"out"`` for the result, as
torch's ``_saved_result``); its ``apply`` is the local derivative, written once
for floats (a plain backward) and Values (``create_graph=True``): where torch's
formula is ``where(mask, grad, 0)``, a recorded backward records that
``WhereBackward0``.

:func:`record` builds a node: one edge per operand (None for a number or a
Value that needs no grad, as torch's ``next_functions`` shows), the saved
operands stamped with their versions.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from micrograph import anomaly, ieee, inference
from micrograph.grad_mode import is_recording
from micrograph.node import Grad, Node, Sends, gradient_edge, numbered
from micrograph.boolean import BoolValue
from micrograph.value import Value, _new


class ExtraOp(Node):
    """A node built by :func:`record`; ``apply`` is the op's whole backward."""

    __slots__ = ()
    # What the node keeps besides saved operands (alpha, a bound, a mask): set by record().
    consts: ClassVar[tuple[str, ...]] = ()

    def saved(self, create_graph: bool) -> tuple[Any, ...]:
        return self.unpack(create_graph) if self.saves else ()


def record(op: type[ExtraOp], inputs: tuple[Any, ...], result: float, saved: tuple[Any, ...] = (),
           **consts: Any) -> Value:
    """``op``'s output for ``inputs`` (Values, numbers or None) and its node when grad mode says so.

    ``saved`` lists, in ``op.saves`` order, the operands to keep; the string
    ``"out"`` stands for the result, kept as an alias sharing its number and
    version counter (a node never holds its own output).
    """
    out = _new(result)
    if not is_recording():
        return inference.mark(out)
    edges = tuple(gradient_edge(x) if isinstance(x, Value) else None for x in inputs)
    if all(e is None for e in edges):
        return out
    items = tuple(Value._shared(out._storage, out._shared_vc()) if s == "out" else s for s in saved)
    versions = tuple(x._vc[0] if isinstance(x, Value) and x._vc is not None else 0 for x in items)
    node = numbered(op(edges, result=result, saved=items, versions=versions), inputs)
    for name, value in consts.items():
        setattr(node, name, value)
    out.grad_fn = node
    out._requires_grad = True
    if anomaly.state.enabled:
        anomaly.stamp(node)
    return out


# -- helpers that work on floats and on Values ------------------------------------------
def masked(keep: bool, g: Grad) -> Grad:
    """``where(mask, grad, 0)``: recorded as torch's WhereBackward0 when ``g`` is a Value."""
    if type(g) is float:
        return g if keep else 0.0
    return where(BoolValue.of(keep), g, 0.0)


def number(x: Any) -> float:
    return x if type(x) is float else x.item()


def fma(x: float, y: float, z: float) -> float:
    """``x * y + z`` rounded once, as torch's vectorised kernels compute it (Python 3.11 has no math.fma)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return x * y + z
    p = x * y
    if not math.isfinite(p) or abs(x) > 1e290 or abs(y) > 1e290:  # the split below would overflow
        return p + z
    hi_x, lo_x = ieee.split(x)
    hi_y, lo_y = ieee.split(y)
    e = ((hi_x * hi_y - p) + hi_x * lo_y + lo_x * hi_y) + lo_x * lo_y
    return math.fsum((z, p, e))


# -- where, maximum, minimum --------------------------------------------------------------
class WhereBackward0(ExtraOp):
    """``where(condition, x, y)``: the gradient goes to the side the condition picked."""

    __slots__ = ()
    saves = ("condition",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (cond,) = self.saved(create_graph)
        keep = bool(number(cond))
        return masked(keep, grad), masked(not keep, grad)


def where(condition: Any, x: Any, y: Any) -> Value:
    """``torch.where`` on one element: ``x`` if ``condition`` (a bool Value) else ``y``."""
    if not isinstance(condition, Value):
        raise TypeError(
            f"where() received an invalid combination of arguments - got ({type(condition).__name__}, "
            f"{_type_name(x)}, {_type_name(y)}), but expected one of:\n"
            " * (Value condition, Value input, Value other)\n"
            " * (Value condition, Value input, Number other)\n"
            " * (Value condition, Number input, Value other)"
        )
    if not isinstance(condition, BoolValue):
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype Double"
        )
    x, y = _operand(x, "where"), _operand(y, "where")
    pick = x if condition.item() else y
    return record(WhereBackward0, (x, y), number(pick), (condition,))


def _type_name(x: Any) -> str:
    return "Tensor" if isinstance(x, Value) else type(x).__name__


class MaximumBackward0(ExtraOp):
    """``maximum(a, b)``: the gradient goes to the larger; a tie splits it; nan passes it to both (torch's masks)."""

    __slots__ = ()
    saves = ("self", "other")
    larger = True

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        a, b = (number(v) for v in self.saved(create_graph))
        g = grad / 2.0 if a == b else grad  # torch: where(self == other, grad / 2, grad), then masks
        lose_a, lose_b = (a < b, a > b) if self.larger else (a > b, a < b)
        return masked(not lose_a, g), masked(not lose_b, g)


class MinimumBackward0(MaximumBackward0):
    __slots__ = ()
    larger = False


def maximum(a: Any, b: Any, name: str = "maximum") -> Value:
    for i, x in enumerate((a, b)):
        if not isinstance(x, Value):
            what = ("input", "other")[i]
            raise TypeError(f"{name}(): argument '{what}' (position {i + 1}) must be Tensor, not {type(x).__name__}")
    x, y = a.item(), b.item()
    if name == "maximum":
        result = x if (x != x or x > y) else y if (y != y or y > x) else x
        return record(MaximumBackward0, (a, b), result, (a, b))
    result = x if (x != x or x < y) else y if (y != y or y < x) else x
    return record(MinimumBackward0, (a, b), result, (a, b))


def minimum(a: Any, b: Any) -> Value:
    return maximum(a, b, "minimum")


# -- clamp ------------------------------------------------------------------------------
def clamp_number(x: float, low: float | None, high: float | None) -> float:
    """``min(max(x, low), high)`` with nan anywhere giving nan, as torch's kernel."""
    if low is not None and (low != low or x < low):
        x = float(low)
    if high is not None and (high != high or x > high):
        x = float(high)
    return x


class ClampBackward1(ExtraOp):
    """``clamp(v, min, max)`` with number bounds: the gradient passes where ``min <= v <= max``."""

    __slots__ = ()
    saves = ("self",)
    consts = ("min", "max")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (v,) = self.saved(create_graph)
        x = number(v)
        low, high = self.min, self.max  # type: ignore[attr-defined]
        return (masked((low is None or x >= low) and (high is None or x <= high), grad),)


class ClampBackward0(ExtraOp):
    """``clamp(v, min, max)`` with Value bounds: a gradient to each bound that won."""

    __slots__ = ()
    saves = ("self", "min", "max")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        x, low, high = (None if s is None else number(s) for s in self.saved(create_graph))
        if low is not None and high is not None:
            return (masked(low <= x <= high, grad), masked(x < low and low < high, grad),
                    masked(x > high or high < low, grad))
        if low is not None:
            return masked(x >= low, grad), masked(x < low, grad), None
        return masked(x <= high, grad), None, masked(x > high, grad)  # type: ignore[operator]


class ClampMinBackward0(ExtraOp):
    __slots__ = ()
    saves = ("self",)
    consts = ("min",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (v,) = self.saved(create_graph)
        return (masked(number(v) >= self.min, grad),)  # type: ignore[attr-defined]


class ClampMaxBackward0(ExtraOp):
    __slots__ = ()
    saves = ("self",)
    consts = ("max",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (v,) = self.saved(create_graph)
        return (masked(number(v) <= self.max, grad),)  # type: ignore[attr-defined]


class ClampMinBackward1(ExtraOp):
    """``clamp_min(v, bound)`` with a Value bound: the gradient goes to whichever won (``v`` on a tie)."""

    __slots__ = ()
    saves = ("self", "min")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        x, low = (number(s) for s in self.saved(create_graph))
        return masked(x >= low, grad), masked(x < low, grad)


class ClampMaxBackward1(ExtraOp):
    __slots__ = ()
    saves = ("self", "max")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        x, high = (number(s) for s in self.saved(create_graph))
        return masked(x <= high, grad), masked(x > high, grad)


def _bound_type(x: Any) -> str:
    return "Tensor" if isinstance(x, Value) else type(x).__name__


def _invalid(name: str, given: tuple[tuple[str, Any], ...], prefix: str) -> TypeError:
    """torch's argument-parser error; the bounds described as if given by position (by name for a lone max)."""
    parts = [_bound_type(b) for k, b in given] if given and given[0][0] == "min" else [f"{k}={_bound_type(b)}" for k, b in given]
    described = prefix + ", ".join(parts) + (", " if given and given[0][0] != "min" else "")
    return TypeError(f"{name}() received an invalid combination of arguments - got ({described}), but expected one of:")


def clamp(v: Value, min: Any = None, max: Any = None, prefix: str = "") -> Value:  # noqa: A002 - torch's names
    """torch's two overloads: Value bounds (``ClampBackward0``), or numbers (``ClampBackward1``); not a mix."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    given = tuple((k, b) for k, b in (("min", min), ("max", max)) if b is not None)
    all_values = all(isinstance(b, Value) for _, b in given)
    # With a number among the bounds it is the number overload, where a Value that
    # requires grad cannot stand for a number (one that does not, can).
    if any(not isinstance(b, (Value, int, float)) or (not all_values and isinstance(b, Value) and b.requires_grad)
           for _, b in given):
        raise _invalid("clamp", given, prefix)
    x = v.item()
    if all_values:
        low = None if min is None else min.item()
        high = None if max is None else max.item()
        return record(ClampBackward0, (v, min, max), clamp_number(x, low, high), (v, min, max))
    low = None if min is None else _scalar(min)
    high = None if max is None else _scalar(max)
    return record(ClampBackward1, (v,), clamp_number(x, low, high), (v,), min=low, max=high)


def _scalar(bound: Any) -> int | float:
    """A number bound as torch keeps it (a Scalar): an int or a bool stays itself, anything else is a float."""
    return bound if type(bound) in (int, bool) else float(bound)


def clamp_min(v: Value, min: Any) -> Value:  # noqa: A002
    if isinstance(min, Value):
        return record(ClampMinBackward1, (v, min), clamp_number(v.item(), min.item(), None), (v, min))
    if not isinstance(min, (int, float)):
        raise _invalid("clamp_min", (("min", min),), "")
    return record(ClampMinBackward0, (v,), clamp_number(v.item(), float(min), None), (v,), min=_scalar(min))


def clamp_max(v: Value, max: Any) -> Value:  # noqa: A002
    if isinstance(max, Value):
        return record(ClampMaxBackward1, (v, max), clamp_number(v.item(), None, max.item()), (v, max))
    if not isinstance(max, (int, float)):
        raise _invalid("clamp_max", (("min", max),), "")  # a lone positional bound
    return record(ClampMaxBackward0, (v,), clamp_number(v.item(), None, float(max)), (v,), max=_scalar(max))


def _operand(x: Any, where: str) -> Any:
    if isinstance(x, Value):
        return x
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x)
    raise TypeError(f"{where}() takes a Value or a real number, got {type(x).__name__}")


# -- tan, log1p ---------------------------------------------------------------------------
class TanBackward0(ExtraOp):
    """d tan = 1 + tan²: torch writes ``grad * (1 + result.pow(2))``."""

    __slots__ = ()
    saves = ("out",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (out,) = self.saved(create_graph)
        return (grad * (out ** 2)._add_scalar(1.0) if type(out) is not float else grad * (1.0 + out * out),)


class Log1PBackward0(ExtraOp):
    """d log(1 + x) = 1 / (1 + x): torch writes ``grad / (self + 1)``."""

    __slots__ = ()
    saves = ("self",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (x,) = self.saved(create_graph)
        if type(x) is float and type(grad) is float:
            return (ieee.div(grad, x + 1.0),)
        return (grad / (x._add_scalar(1.0) if isinstance(x, Value) else x + 1.0),)  # AddBackward1, as torch's


def tan(v: Value) -> Value:
    x = v.item()
    return record(TanBackward0, (v,), math.tan(x) if math.isfinite(x) else math.nan, ("out",))


def log1p(v: Value) -> Value:
    x = v.item()
    result = math.log1p(x) if x > -1.0 else (-math.inf if x == -1.0 else math.nan)
    return record(Log1PBackward0, (v,), result, (v,))


# -- add / sub with alpha -------------------------------------------------------------------
class AddBackward0(ExtraOp):
    """``add(a, b, alpha=k)``: a + k*b (one rounding, as torch's kernel); b's gradient is k * grad."""

    __slots__ = ()
    sends = Sends.SAME  # the first input's gradient is the incoming one itself
    consts = ("alpha",)
    sign = 1.0

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        k = self.alpha  # type: ignore[attr-defined]
        if k == 1.0 and self.sign > 0:  # torch's maybe_multiply: the incoming gradient itself, no product
            return grad, grad
        return grad, (-grad if self.sign < 0 else grad) * k


class SubBackward0(AddBackward0):
    __slots__ = ()
    sign = -1.0


def add(a: Value, b: Any, alpha: Any = 1, subtract: bool = False) -> Value:
    """``a + alpha * b`` (``a - alpha * b``), recorded as AddBackward0 (SubBackward0) with ``alpha``."""
    name = "sub" if subtract else "add"
    b = _operand(b, name)
    if isinstance(alpha, bool):
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not isinstance(alpha, (Value, int, float)):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    k = alpha.item() if isinstance(alpha, Value) else alpha  # an int alpha stays an int (its _saved_alpha shows 2)
    x, y = a.item(), number(b)
    result = fma(y, -float(k) if subtract else float(k), x)
    op = SubBackward0 if subtract else AddBackward0
    return record(op, (a, b), result, alpha=k)


class ViewBackward0(ExtraOp):
    """An alias of a value that keeps its graph (torch's ``view_as``); the gradient passes unchanged."""

    __slots__ = ()
    sends = Sends.EXPAND  # torch's gradient is a view of the incoming one

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (grad,)


class DivBackward1(ExtraOp):
    """``v / number``: the number is a constant of the node (torch's scalar overload)."""

    __slots__ = ()
    consts = ("divisor",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        k = self.divisor  # type: ignore[attr-defined]
        return (ieee.div(grad, k) if type(grad) is float else divide_number(grad, k),)


def divide_number(g: Value, k: float) -> Value:
    return record(DivBackward1, (g,), ieee.div(g.item(), k), divisor=k)
