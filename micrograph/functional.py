"""Module-level functions, named as in ``torch``: ``add(w, x)``, ``mul(a, b)``, ``sum(values)``, ``mm(A, B)``.

The documents write ``torch.add(w, x)``; these let the same lines run here. A Python number in first place becomes a
constant Value (``torch.mul(2.0, w)``); anything else is torch's TypeError naming it.
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

from micrograph import ops
from micrograph.value import BoolValue, Value, invalid_arguments, reduce, record


def _arg(x: Any, name: str, position: int = 1, number_too: bool = False) -> Any:
    if isinstance(x, Value) or (number_too and isinstance(x, numbers.Real)):
        return x
    what = "input" if position == 1 else "other"
    raise TypeError(f"{name}(): argument '{what}' (position {position}) must be Tensor, not {type(x).__name__}")


def _first(x: Any, name: str) -> Value:
    x = _arg(x, name, 1, number_too=True)
    return x if isinstance(x, Value) else Value(x)


def add(a: Any, b: Any, *, alpha: Any = 1) -> Value:
    return _first(a, "add").add(_arg(b, "add", 2, number_too=True), alpha=alpha)


def sub(a: Any, b: Any, *, alpha: Any = 1) -> Value:
    return _first(a, "sub").sub(_arg(b, "sub", 2, number_too=True), alpha=alpha)


def mul(a: Any, b: Any) -> Value:
    return _first(a, "mul") * _arg(b, "mul", 2, number_too=True)


def div(a: Any, b: Any) -> Value:
    return _first(a, "div") / _arg(b, "div", 2, number_too=True)


def pow(a: Any, b: Any) -> Value:  # noqa: A001 - torch's name
    if isinstance(a, Value):
        return a ** _arg(b, "pow", 2, number_too=True)
    return _arg(b, "pow").__rpow__(a)


def _unary(name: str) -> Any:
    def fn(a: Any) -> Value:
        return getattr(_arg(a, name), name)()

    fn.__name__ = name
    fn.__doc__ = f"``{name}(a)``: as ``a.{name}()``."
    return fn


neg, exp, log, log1p, sqrt, sin, cos, tan, tanh, sigmoid, relu, abs, reciprocal, square = (  # noqa: A001
    _unary(n) for n in ("neg", "exp", "log", "log1p", "sqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu",
                        "abs", "reciprocal", "square"))


def clamp(a: Any, min: Any = None, max: Any = None) -> Value:  # noqa: A002 - torch's names
    op, bounds, scalars = ops.clamp_overload(min, max, "Tensor")
    return record(op, _arg(a, "clamp"), bounds, scalars)


clip = clamp


def maximum(a: Value, b: Value) -> Value:
    return _arg(a, "maximum").maximum(_arg(b, "maximum", 2))


def minimum(a: Value, b: Value) -> Value:
    return _arg(a, "minimum").minimum(_arg(b, "minimum", 2))


def where(condition: Value, x: Any, y: Any) -> Value:
    """``x`` where ``condition`` holds, else ``y`` (one ``WhereBackward0`` node, saving the condition)."""
    if not isinstance(condition, Value) or not all(isinstance(v, (Value, numbers.Real)) for v in (x, y)):
        raise invalid_arguments("where", condition, x, y)
    return (x if isinstance(x, Value) else Value(x)).where(condition, y)


def _comparison(name: str) -> Any:
    def fn(a: Any, b: Any) -> BoolValue:  # a number first is refused, unlike add's
        if not isinstance(a, Value) or not isinstance(b, (Value, numbers.Real)):
            raise invalid_arguments(name, a, b)
        return getattr(a, name)(b)

    fn.__name__ = name
    return fn


eq, ne, lt, le, gt, ge = (_comparison(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))


def _like(name: str, number: float) -> Any:
    def fn(a: Any, *, requires_grad: bool = False) -> Value:  # the tutorials' seed: y.backward(torch.ones_like(y))
        _arg(a, name)  # torch's TypeError for anything but a Value
        return Value(number, requires_grad=requires_grad)

    fn.__name__, fn.__doc__ = name, f"``{name}(a)``: a new leaf holding {number:g}, whatever ``a`` holds."
    return fn


ones_like, zeros_like = _like("ones_like", 1.0), _like("zeros_like", 0.0)


def _terms(values: Sequence[Any], name: str) -> list[Value]:
    terms = [v if isinstance(v, Value) else Value(v) for v in values]
    if not terms:
        raise ValueError(f"{name}() needs at least one value")
    return terms


def sum(values: Value | Sequence[Any]) -> Value:  # noqa: A001 - torch's name
    """The sum of ``values`` as one ``SumBackward0`` node (saves nothing: backward twice works)."""
    return values.sum() if isinstance(values, Value) else reduce(_terms(values, "sum"), ops.SumBackward0)


def mean(values: Value | Sequence[Any]) -> Value:
    """The mean of ``values`` as one ``MeanBackward0`` node."""
    return values.mean() if isinstance(values, Value) else reduce(_terms(values, "mean"), ops.MeanBackward0)


def mm(a: Sequence[Sequence[Any]], b: Sequence[Sequence[Any]]) -> list[list[Value]]:
    """Matrix product of nested lists: ``out[i][j] = sum_k a[i][k] * b[k][j]``, each entry a
    ``SumBackward0`` over ``MulBackward0`` products."""
    rows, inner = _shape(a, "mm: first matrix")
    inner_b, cols = _shape(b, "mm: second matrix")
    if inner != inner_b:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{inner} and {inner_b}x{cols})")
    return [[sum([mul(a[i][k], b[k][j]) for k in range(inner)]) for j in range(cols)] for i in range(rows)]


def _shape(m: Sequence[Sequence[Any]], what: str) -> tuple[int, int]:
    if not isinstance(m, (list, tuple)) or not m or not all(isinstance(r, (list, tuple)) for r in m):
        raise TypeError(f"{what} must be a non-empty list of rows (lists)")
    width = len(m[0])
    if width == 0 or any(len(r) != width for r in m):
        raise ValueError(f"{what} must have rows of one non-zero length")
    return len(m), width
