"""Module-level functions, named as in ``torch``: ``add(w, x)``, ``mul(a, b)``, ``sum(values)``, ``mm(A, B)``.

The documents write ``torch.add(w, x)`` and ``torch.mul(a, b)``; these let the
same lines run here.  A Python number in first place becomes a constant Value,
which the graph shows as a ``None`` edge, as PyTorch does for a constant tensor.
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

from micrograph import anomaly, arguments, ieee, inference, intra_op, ops, ops_extra
from micrograph.grad_mode import is_recording
from micrograph.node import Node, gradient_edge, numbered
from micrograph.boolean import wrap_number
from micrograph.value import Value


def _value(x: Any) -> Value:
    return x if isinstance(x, Value) else Value(x)


def _input(x: Any, name: str) -> Value:
    """A function's first argument: a Value, as torch's functions take a Tensor there (a number is its TypeError)."""
    if not isinstance(x, Value):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _first(x: Any, name: str) -> Value:
    """A binary function's first argument: a Value, or a number wrapped as torch wraps it (``torch.mul(2.0, w)``)."""
    if isinstance(x, Value):
        return x
    if not isinstance(x, numbers.Real):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return wrap_number(x)


def _other(x: Any, name: str, position: int) -> Any:
    """The second operand of ``add``/``sub``/``mul``/``div``: a Value or a real number, else torch's TypeError."""
    if not isinstance(x, (Value, numbers.Real)):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not {type(x).__name__}")
    return x


def add(a: Any, b: Any, *, alpha: Any = 1) -> Value:
    """``a + alpha * b``; with ``alpha`` the product and sum round once, as torch's kernel."""
    return _first(a, "add").add(_other(b, "add", 2), alpha=alpha)


def sub(a: Any, b: Any, *, alpha: Any = 1) -> Value:
    return _first(a, "sub").sub(_other(b, "sub", 2), alpha=alpha)


def mul(a: Any, b: Any) -> Value:
    return _first(a, "mul") * _other(b, "mul", 2)


def div(a: Any, b: Any) -> Value:
    return _first(a, "div") / _other(b, "div", 2)


def pow(a: Any, b: Any) -> Value:  # noqa: A001 - torch's name
    if isinstance(a, Value):
        return a ** b
    return _value(b).__rpow__(a)


def neg(a: Any) -> Value:
    return -_input(a, "neg")


def _unary(name: str) -> Any:
    def fn(a: Any) -> Value:
        return getattr(_input(a, name), name)()

    fn.__name__ = name
    fn.__doc__ = f"``{name}(a)``, the same as ``a.{name}()``."
    return fn


exp = _unary("exp")
log = _unary("log")
sqrt = _unary("sqrt")
sin = _unary("sin")
cos = _unary("cos")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
relu = _unary("relu")
abs = _unary("abs")  # noqa: A001 - torch's name
reciprocal = _unary("reciprocal")
square = _unary("square")
tan = _unary("tan")
log1p = _unary("log1p")


def clamp(a: Any, min: Any = None, max: Any = None) -> Value:  # noqa: A002 - torch's names
    """``min(max(a, min), max)``; Value bounds get gradients (ClampBackward0), numbers do not (ClampBackward1)."""
    return ops_extra.clamp(_value(a), min, max, prefix="Tensor, ")  # torch.clamp names its first argument too


clip = clamp


def _tensor(x: Any, name: str) -> Value:
    if not isinstance(x, Value):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Value:  # noqa: A002
    """``|input|`` as torch's vector norm of one element (spread.py)."""
    return _tensor(input, "norm").norm(p, dim, keepdim)


def var(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Value:  # noqa: A002
    return _tensor(input, "var").var(dim, unbiased, keepdim, correction=correction)


def std(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Value:  # noqa: A002
    return _tensor(input, "std").std(dim, unbiased, keepdim, correction=correction)


def maximum(a: Value, b: Value) -> Value:
    """The larger of two Values (both must be Values, as torch's takes tensors)."""
    return ops_extra.maximum(a, b)


def minimum(a: Value, b: Value) -> Value:
    return ops_extra.minimum(a, b)


def where(condition: Value, x: Any, y: Any) -> Value:
    """``x`` where ``condition`` (a comparison's bool Value) holds, else ``y``; the gradient follows the pick."""
    return ops_extra.where(condition, x, y)


def _comparison(name: str) -> Any:
    def fn(a: Any, b: Any) -> Value:
        return getattr(_value(a), name)(b)

    fn.__name__ = name
    fn.__doc__ = f"``{name}(a, b)``: a bool Value, as ``a.{name}(b)``; never recorded."
    return fn


eq, ne, lt, le, gt, ge = (_comparison(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))


def _reduce(op: type[Node], values: Sequence[Any], name: str) -> Value:
    """One node with an edge to every term, as ``torch.sum`` makes one SumBackward0."""
    terms = [_value(v) for v in arguments.sequence_items(values)]
    if not terms:
        raise ValueError(f"{name}() needs at least one value")
    total = intra_op.split_sum([t._storage[0] for t in terms])  # torch's order of additions (and threads' pieces)
    data = total if op is ops.SumBackward0 else ieee.div(total, float(len(terms)))
    out = inference.mark(Value._shared([data], None))
    if is_recording():
        edges = tuple(gradient_edge(t) for t in terms)
        if any(e is not None for e in edges):
            out.grad_fn = numbered(op(edges, result=data), terms)
            out._requires_grad = True
            if anomaly.state.enabled:  # the forward stack a failing backward will show
                anomaly.stamp(out.grad_fn)
    return out


def sum(values: Value | Sequence[Any], *args: Any, **kwargs: Any) -> Value:  # noqa: A001 - torch's name
    """The sum of ``values`` as one ``SumBackward0`` node (saves nothing: backward twice works).

    ``sum(v)`` of one Value is ``v.sum(...)``, torch's reduction of a 0-dim tensor.
    """
    if isinstance(values, Value):
        return values.sum(*args, **kwargs)
    return _reduce(ops.SumBackward0, values, "sum")


def mean(values: Value | Sequence[Any], *args: Any, **kwargs: Any) -> Value:
    """The mean of ``values`` as one ``MeanBackward0`` node; ``mean(v)`` of one Value is ``v.mean(...)``."""
    if isinstance(values, Value):
        return values.mean(*args, **kwargs)
    return _reduce(ops.MeanBackward0, values, "mean")


def mm(a: Sequence[Sequence[Any]], b: Sequence[Sequence[Any]]) -> list[list[Value]]:
    """Matrix product of nested lists: ``out[i][j] = sum_k a[i][k] * b[k][j]``.

    Each entry is a ``SumBackward0`` over ``MulBackward0`` products, so the
    vector-Jacobian product of the documents (``backward`` with a gradient per
    entry) runs through ordinary scalar nodes.
    """
    rows, inner = _shape(a, "mm: first matrix")
    inner_b, cols = _shape(b, "mm: second matrix")
    if inner != inner_b:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{inner} and {inner_b}x{cols})"
        )
    return [[sum([mul(a[i][k], b[k][j]) for k in range(inner)]) for j in range(cols)] for i in range(rows)]


def _shape(m: Sequence[Sequence[Any]], what: str) -> tuple[int, int]:
    if not isinstance(m, (list, tuple)) or not m or not all(isinstance(r, (list, tuple)) for r in m):
        raise TypeError(f"{what} must be a non-empty list of rows (lists)")
    width = len(m[0])
    if width == 0 or any(len(r) != width for r in m):
        raise ValueError(f"{what} must have rows of one non-zero length")
    return len(m), width
