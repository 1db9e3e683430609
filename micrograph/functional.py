"""Module-level functions, named as in ``torch``: ``add(w, x)``, ``mul(a, b)``, ``sum(values)``, ``mm(A, B)``.

The documents write ``torch.add(w, x)`` and ``torch.mul(a, b)``; these let the
same lines run here.  A Python number in first place becomes a constant Value,
which the graph shows as a ``None`` edge, as PyTorch does for a constant tensor.
"""

from __future__ import annotations

from typing import Any, Sequence

from micrograph import ops
from micrograph.grad_mode import is_grad_enabled
from micrograph.node import Node
from micrograph.value import Value, _edge


def _value(x: Any) -> Value:
    return x if isinstance(x, Value) else Value(x)


def add(a: Any, b: Any) -> Value:
    return _value(a) + b


def sub(a: Any, b: Any) -> Value:
    return _value(a) - b


def mul(a: Any, b: Any) -> Value:
    return _value(a) * b


def div(a: Any, b: Any) -> Value:
    return _value(a) / b


def pow(a: Any, b: Any) -> Value:  # noqa: A001 - torch's name
    if isinstance(a, Value):
        return a ** b
    return _value(b).__rpow__(a)


def neg(a: Any) -> Value:
    return -_value(a)


def _unary(name: str) -> Any:
    def fn(a: Any) -> Value:
        return getattr(_value(a), name)()

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


def _reduce(op: type[Node], values: Sequence[Any], name: str) -> Value:
    """One node with an edge to every term, as ``torch.sum`` makes one SumBackward0."""
    terms = [_value(v) for v in values]
    if not terms:
        raise ValueError(f"{name}() needs at least one value")
    total = 0.0
    for t in terms:
        total += t._storage[0]
    data = total if op is ops.SumBackward0 else total / len(terms)
    out = Value._shared([data], None)
    if is_grad_enabled():
        edges = tuple(_edge(t) for t in terms)
        if any(e is not None for e in edges):
            out.grad_fn = op(edges, result=data)
            out._requires_grad = True
    return out


def sum(values: Sequence[Any]) -> Value:  # noqa: A001 - torch's name
    """The sum of ``values`` as one ``SumBackward0`` node (saves nothing: backward twice works)."""
    return _reduce(ops.SumBackward0, values, "sum")


def mean(values: Sequence[Any]) -> Value:
    """The mean of ``values`` as one ``MeanBackward0`` node."""
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
