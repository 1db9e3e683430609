"""Reductions of a 0-dim tensor: ``v.sum()``, ``v.mean()``, ``v.prod()``, ``v.amax()`` ...

On one element each is the element itself (``sum`` and ``mean`` add it to a
``+0.0`` accumulator, so ``-0.0`` comes out ``0.0``, as torch's kernels), but
each records its own node, named as torch names it: ``v.sum()`` is
``SumBackward0`` and ``v.sum(0)`` (any ``dim``, even ``dim=None``) is
``SumBackward1``.  The gradients follow torch's formulas on one element: for
``amax``, ``grad * (v == result) / count``, which is nan at a nan element;
``logsumexp``'s ``grad * exp(v - result)`` is nan at ±inf.  ``micrograph.sum``
of a *list* of Values is the other reduction, in ``functional.py``.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from micrograph import ieee
from micrograph.integer import IntValue, max_result, min_result
from micrograph.node import Grad, Sends
from micrograph.ops_extra import ExtraOp, divide_number, number, record
from micrograph.value import Value

_NOT_GIVEN: Any = object()


class _Identity(ExtraOp):
    """A reduction whose gradient on one element is the incoming gradient itself."""

    __slots__ = ()

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        self.saved(create_graph)  # what it saved is checked (changed in place? freed?) though not needed
        return (grad,)


class ProdBackward0(_Identity):
    __slots__ = ()
    sends = Sends.SAME  # torch returns grad itself for a 0-dim input
    saves = ("self", "out")


class ProdBackward1(_Identity):
    __slots__ = ()
    sends = Sends.SAME
    saves = ("self", "out")
    consts = ("dim", "keepdim")


class CumsumBackward0(_Identity):
    __slots__ = ()
    consts = ("dim",)


class MaxBackward1(_Identity):
    """``v.max()``: torch spreads the gradient evenly over the maxima; here the one element."""

    __slots__ = ()
    sends = Sends.MASKED
    saves = ("self", "out")


class MinBackward1(_Identity):
    __slots__ = ()
    sends = Sends.MASKED
    saves = ("self", "out")


class ScatterBackward0(_Identity):
    """What ``max(dim)``'s gradient is under create_graph: torch scatters it back to the index."""

    __slots__ = ()


class MaxBackward0(ExtraOp):
    """``v.max(dim)``'s values: the gradient goes to the selected index (the one element)."""

    __slots__ = ()
    saves = ("indices",)  # a saved tensor in torch: freed by backward like any other
    consts = ("dim", "keepdim", "self_sym_sizes")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (grad if type(grad) is float else record(ScatterBackward0, (grad,), grad.item()),)


class MinBackward0(MaxBackward0):
    __slots__ = ()


class ExpandBackward0(_Identity):
    """What a recorded ``sum``'s gradient is: the incoming gradient expanded to the input's shape."""

    __slots__ = ()


def _expanded(grad: Grad) -> Grad:
    """torch's sum backward is ``grad.expand(shape)``: recorded as ExpandBackward0 under create_graph."""
    if type(grad) is float:
        return grad
    return record(ExpandBackward0, (grad,), grad.item())


class SumBackward0(ExtraOp):
    __slots__ = ()
    sends = Sends.EXPAND
    consts = ("self_sym_sizes",)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (_expanded(grad),)


class SumBackward1(SumBackward0):
    __slots__ = ()
    consts = ("dim", "keepdim", "self_sym_sizes")


class MeanBackward0(ExtraOp):
    """torch: ``grad.expand(shape) / numel``."""

    __slots__ = ()
    consts = ("self_sym_numel", "self_sym_sizes")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        g = _expanded(grad)
        return (g / 1.0 if type(g) is float else divide_number(g, 1.0),)


class MeanBackward1(MeanBackward0):
    __slots__ = ()
    consts = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")


class NansumBackward0(ExtraOp):
    """torch: ``grad * self.isnan().logical_not()``: no gradient to a nan."""

    __slots__ = ()
    saves = ("self",)
    consts = ("dim", "keepdim")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (v,) = self.saved(create_graph)
        x = number(v)
        return (grad * (0.0 if x != x else 1.0),)


class AmaxBackward0(ExtraOp):
    """torch: ``grad * (self == result) / count``: nan where the element is nan (0 / 0)."""

    __slots__ = ()
    saves = ("self", "out")
    consts = ("dim", "keepdim")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        v, out = self.saved(create_graph)
        mask = 1.0 if number(v) == number(out) else 0.0
        if type(grad) is float:
            return (ieee.div(grad * mask, mask),)
        return ((grad * mask) / mask,)


class AminBackward0(AmaxBackward0):
    __slots__ = ()


class LogsumexpBackward0(ExtraOp):
    """torch: ``grad * (self - result).exp()``."""

    __slots__ = ()
    saves = ("self", "out")
    consts = ("dim", "keepdim")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        v, out = self.saved(create_graph)
        if type(v) is float:
            return (grad * ieee.exp(v - out),)
        return (grad * (v - out).exp(),)


def _logsumexp(x: float) -> float:
    return x if math.isinf(x) or x != x else x + math.log(math.exp(0.0))


# name -> (node without dim, node with dim, forward, what it saves)
_TABLE: dict[str, tuple[type[ExtraOp], type[ExtraOp], Callable[[float], float], tuple[str, ...]]] = {
    "sum": (SumBackward0, SumBackward1, lambda x: 0.0 + x, ()),
    "mean": (MeanBackward0, MeanBackward1, lambda x: (0.0 + x) / 1.0, ()),
    "prod": (ProdBackward0, ProdBackward1, lambda x: x, ("self", "out")),
    "nansum": (NansumBackward0, NansumBackward0, lambda x: 0.0 if x != x else 0.0 + x, ("self",)),
    "amax": (AmaxBackward0, AmaxBackward0, lambda x: x, ("self", "out")),
    "amin": (AminBackward0, AminBackward0, lambda x: x, ("self", "out")),
    "logsumexp": (LogsumexpBackward0, LogsumexpBackward0, _logsumexp, ("self", "out")),
    "cumsum": (CumsumBackward0, CumsumBackward0, lambda x: x, ()),
}


def reduce(v: Value, name: str, dim: Any = _NOT_GIVEN, keepdim: bool = False) -> Value:
    """``v.<name>(dim, keepdim)`` on a 0-dim Value (``dim`` None, 0, -1 or a tuple of them)."""
    no_dim, with_dim, forward, saves = _TABLE[name]
    if dim is _NOT_GIVEN and keepdim is not False and name in ("sum", "mean", "prod"):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (keepdim={type(keepdim).__name__}, ), "
                        "but expected one of:")
    given = dim is not _NOT_GIVEN and not (name in ("amax", "amin") and dim == ())
    if name in ("sum", "mean") and dim is None:
        given = True  # torch: v.sum(dim=None) is the dim overload, SumBackward1
    if dim is not _NOT_GIVEN:
        _check_dim(name, dim, single=name in ("prod", "cumsum"))
    if not isinstance(keepdim, bool):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (keepdim={type(keepdim).__name__}, )")
    op = with_dim if given else no_dim
    saved = tuple(v if s == "self" else s for s in saves)
    return record(op, (v,), forward(v.item()), saved, **_shown(op, dim if given else _NOT_GIVEN, keepdim))


def _shown(op: type[ExtraOp], dim: Any, keepdim: bool) -> dict[str, Any]:
    """What torch's node shows as ``_saved_dim``/``_keepdim``/``_self_sym_sizes``/``_self_sym_numel``.

    A dim is stored as torch's C++ unsigned view of it (-1 shows as 2**64 - 1); the
    dim-list overloads keep a tuple (or None), the single-dim ones an int.
    """
    shown: dict[str, Any] = {"self_sym_sizes": (), "self_sym_numel": 1}
    if dim is _NOT_GIVEN:
        dim = () if op in (AmaxBackward0, AminBackward0) else None
    elif isinstance(dim, int) and op in (ProdBackward1, CumsumBackward0, MaxBackward0, MinBackward0):
        dim = _unsigned(dim)
    elif dim is not None:
        dim = tuple(_unsigned(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))
    shown.update(dim=dim, keepdim=keepdim)
    return {k: v for k, v in shown.items() if k in op.consts}


def _unsigned(d: int) -> int:
    return d % 2**64


def _check_dim(name: str, dim: Any, single: bool) -> None:
    dims = [dim] if not isinstance(dim, (tuple, list)) or single else list(dim)
    for d in dims:
        if d is None and not single:
            continue
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got ({type(d).__name__}), "
                "but expected one of:"
            )
        if d not in (0, -1):
            raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {d})")


def max_min(v: Value, dim: Any, name: str, keepdim: bool = False) -> Any:
    """``v.max()`` / ``v.min()`` over the one element (MaxBackward1 / MinBackward1); with ``dim``,
    torch's ``(values, indices)`` pair: the element (MaxBackward0 / MinBackward0) and index 0."""
    if dim is None:
        return record(MaxBackward1 if name == "max" else MinBackward1, (v,), v.item(), (v, "out"))
    _check_dim(name, dim, single=True)
    if not isinstance(keepdim, bool):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (keepdim={type(keepdim).__name__}, )")
    index = IntValue.of(0)
    op, pair = (MaxBackward0, max_result) if name == "max" else (MinBackward0, min_result)
    values = record(op, (v,), v.item(), (index,), **_shown(op, dim, keepdim))
    return pair(values, index)


def arg_max_min(v: Value, dim: Any, keepdim: bool, name: str) -> IntValue:
    """``argmax``/``argmin``: the index of the one element, 0 (an int Value, as torch's int64)."""
    if dim is not None:
        _check_dim(name, dim, single=True)
    return IntValue.of(0)
