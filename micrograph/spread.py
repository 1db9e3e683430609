"""``norm``, ``var`` and ``std`` of a 0-dim value, as torch computes them on one element.

``v.norm(p)`` is ``|v|`` (``p=0`` counts the non-zero elements: 0 or 1), recorded
as ``LinalgVectorNormBackward0`` with torch's ``_saved_ord``/``_saved_dim``/``_saved_keepdim``.
``var``/``std`` of one element divide by ``1 - correction``: with torch's default
(``correction=1``) that is ``0/0``, so the result is ``nan`` and torch warns
"degrees of freedom is <= 0" on every call; ``correction=0`` (``unbiased=False``) gives 0.

Each gradient follows torch's backward formula step by step (``FunctionsManual.cpp``:
``linalg_vector_norm_backward``, ``var_backward``, ``std_backward``), in its order of
operations, so the corner cases (a zero, ``-0.0``, ``nan``, ``inf``) come out as torch's.
Not modelled: under ``create_graph`` the gradient has torch's number, but the factor that
depends on the input is a number here, so the gradient is not recorded as a function of
the input (torch's is, through its formula's nodes).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from micrograph import ieee
from micrograph.node import Grad
from micrograph.ops_extra import ExtraOp, number, record
from micrograph.value import Value

DOF_WARNING = (
    "{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor "
    "(input numel divided by output numel)."
)


def _sgn(x: float) -> float:
    """torch's ``sgn`` of a real number: -1, 0 or 1 (0 for ``nan`` and for ``-0.0``)."""
    return float((x > 0) - (x < 0))


def _times(a: Grad, k: float) -> Grad:
    """``a * k`` for a gradient ``a`` (a float, or a Value under create_graph)."""
    return a * k


class LinalgVectorNormBackward0(ExtraOp):
    __slots__ = ()
    saves = ("self", "out")
    consts = ("dim", "keepdim", "ord")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        v, out = self.saved(create_graph)
        x, n, p = number(v), number(out), float(self.ord)  # type: ignore[attr-defined]
        if p == 0.0:
            return (None,)  # torch's formula gives no gradient at all: the input's .grad stays None
        if p == 1.0 or math.isinf(p):  # inf: sgn(x) * ((grad / count) * count), count 1 on one element
            return (_times(grad, _sgn(x)),)
        if p == 2.0:
            return (_times(grad, 0.0 if n == 0.0 else ieee.div(x, n)),)
        if p < 1.0:
            scaled = 0.0 if x == 0.0 else _sgn(x) * ieee.pow_number(abs(x), p - 1.0)
            return (_times(grad, scaled) * ieee.pow_number(n, 1.0 - p),)
        scaled = _sgn(x) * ieee.pow_number(abs(x), p - 1.0) if p < 2.0 else x * ieee.pow_number(abs(x), p - 2.0)
        scale = 0.0 if n == 0.0 else ieee.div(1.0, ieee.pow_number(n, p - 1.0))
        return (_times(_times(grad, scale), scaled),)


class VarBackward0(ExtraOp):
    __slots__ = ()
    saves = ("self",)
    consts = ("correction", "dim", "keepdim")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        (v,) = self.saved(create_graph)
        return (_var_grad(grad, number(v), self.correction),)  # type: ignore[attr-defined]


class StdBackward0(ExtraOp):
    __slots__ = ()
    saves = ("self", "out")
    consts = ("correction", "dim", "keepdim")

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        v, out = self.saved(create_graph)
        n = number(out)
        grad_var = _times(grad, 0.0) if n == 0.0 else _times(grad, ieee.div(1.0, n * 2.0))
        return (_var_grad(grad_var, number(v), self.correction),)  # type: ignore[attr-defined]


def _var_grad(grad: Grad, x: float, correction: Any) -> Grad:
    """torch's ``(2 / max(0, N - correction)) * grad * (self - self.mean())`` with N = 1.

    With no degree of freedom torch's gradient at a nan element is ``inf`` (every other
    element gives ``inf * 0``, nan), as recorded from torch 2.13 (parity program 113).
    """
    dof = max(0.0, 1.0 - (1.0 if correction is None else float(correction)))
    if dof == 0.0 and x != x:
        return _times(grad, math.inf)
    return _times(_times(grad, ieee.div(2.0, dof)), x - (0.0 + x))


def norm(v: Value, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Value:
    """``v.norm(p, dim, keepdim)``: ``|v|`` (``p=0``: whether it is non-zero)."""
    if isinstance(p, str):
        if p != "fro":
            detail = "The input tensor A must have at least 2 dimensions." if p == "nuc" else f"Order {p} not supported."
            raise RuntimeError(f"linalg.matrix_norm: {detail}")
        p = 2
    elif p is None:
        p = 2.0
    x = v.item()
    if float(p) == 0.0:
        result = 0.0 if x == 0.0 else 1.0
    elif dim is None or float(p) in (1.0, math.inf, -math.inf):
        result = abs(x)  # torch's whole-tensor norm of one element: |x| exactly
    else:  # along a dim torch sums |x|**p and takes the p-th root: under- and overflow show
        result = ieee.sqrt(x * x) if float(p) == 2.0 else ieee.pow_number(ieee.pow_number(abs(x), float(p)), 1.0 / float(p))
    return record(LinalgVectorNormBackward0, (v,), result, (v, "out"),
                  ord=p, dim=_dims(dim), keepdim=keepdim)


def var(v: Value, name: str, dim: Any = None, unbiased: Any = None, keepdim: bool = False,
        correction: Any = None) -> Value:
    """``var``/``std`` of the one element: ``0 / (1 - correction)`` (a nan and torch's warning when <= 0)."""
    if isinstance(dim, bool):  # v.std(True): the old ``unbiased`` positional
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (correction="
                        f"{type(correction).__name__}, unbiased=bool, ), but expected one of:")
    if unbiased is not None:
        correction = 1 if unbiased else 0
    elif dim is not None and correction is None:
        correction = 1  # torch's dim overload shows the default correction as 1
    shown = {"correction": correction, "dim": _dims(dim), "keepdim": keepdim}  # a wrong dim fails first
    denominator = 1.0 - (1.0 if correction is None else float(correction))
    if denominator <= 0.0:
        warnings.warn(DOF_WARNING.format(name=name), UserWarning, stacklevel=3)
    x = v.item()
    deviation = x - (0.0 + x)
    variance = ieee.div(deviation * deviation, max(0.0, denominator))
    if name == "var":
        return record(VarBackward0, (v,), variance, (v,), **shown)
    return record(StdBackward0, (v,), ieee.sqrt(variance), (v, "out"), **shown)


def _dims(dim: Any) -> tuple[int, ...] | None:
    """``dim`` as torch's node shows it: None, or a tuple."""
    if dim is None:
        return None
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, not {type(d).__name__}")
        if d not in (0, -1):
            raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {d})")
    return tuple(d % 2**64 for d in dims)  # torch shows a dim as its C++ unsigned value (-1: 2**64 - 1)
