"""Float functions with IEEE-754 results, as PyTorch computes them.

Python's float arithmetic raises where IEEE (and therefore PyTorch) returns a value: ``1.0 / 0.0`` is
``ZeroDivisionError``, ``math.exp(1000)`` is ``OverflowError``, ``math.log(0)`` is ``ValueError``. Every op of the
engine goes through these helpers instead, so ``Value(1) / 0`` is ``inf`` and ``Value(0).log()`` is ``-inf``, gradients
included.
"""

from __future__ import annotations

import math

inf = math.inf
nan = math.nan


def div(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0.0 or a != a:
            return nan
        return math.copysign(inf, a) * math.copysign(1.0, b)


def exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return inf


def log(x: float) -> float:
    return math.log(x) if x > 0.0 else -inf if x == 0.0 else nan  # log(inf) is inf; of a negative or nan, nan


def sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0.0 else nan  # sqrt(-0.0) is -0.0, as IEEE says


def _is_odd_integer(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x) and math.fmod(x, 2.0) != 0.0


def pow(a: float, b: float) -> float:
    try:
        return math.pow(a, b)
    except OverflowError:
        negative = a < 0.0 and _is_odd_integer(b)
        return -inf if negative else inf
    except ValueError:
        if a == 0.0:  # zero to a negative power: a signed infinity
            return math.copysign(inf, a) if _is_odd_integer(b) else inf
        return nan  # negative base, non-integer exponent


# ``a ** p`` for these numbers ``p`` is another kernel in torch (``x ** 2`` is ``x * x``, ``x ** 0.5`` is
# ``sqrt(x)``), which differs from ``pow`` at -0.0, -inf and near overflow.
POWERS = {1.0: lambda a: a, 0.5: sqrt, -0.5: lambda a: div(1.0, sqrt(a)), 2.0: lambda a: a * a,
          3.0: lambda a: a * a * a, -1.0: lambda a: div(1.0, a), -2.0: lambda a: div(1.0, a * a)}


def pow_number(a: float, p: float) -> float:
    """``a ** p`` for a number ``p`` as torch computes it."""
    kernel = POWERS.get(p)
    return pow(a, p) if kernel is None else kernel(a)


def sin(x: float) -> float:
    return math.sin(x) if math.isfinite(x) else nan


def cos(x: float) -> float:
    return math.cos(x) if math.isfinite(x) else nan


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + exp(-x))


def relu(x: float) -> float:
    return 0.0 if x < 0.0 else x  # keeps -0.0 and nan, like torch's clamp_min


def sign(x: float) -> float:
    """-1, 0 or 1; 0 for zero and nan (PyTorch's sgn, which abs' gradient uses)."""
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


def one_minus_square(t: float) -> float:
    """``1 - t*t`` rounded once, as PyTorch's tanh backward computes it (a fused multiply-add).

    Plain ``1 - t*t`` rounds twice and is off by an ulp at most points, by far more near saturation where the
    difference cancels.  Dekker's product splits ``t*t`` exactly into ``p + e``; ``math.fsum`` then rounds
    ``1 - p - e`` once.  (Python 3.13 has ``math.fma``; 3.11 does not.)
    """
    p = t * t
    c = 134217729.0 * t  # 2**27 + 1: Veltkamp's split of t into two 26-bit halves
    hi = c - (c - t)
    lo = t - hi
    e = ((hi * hi - p) + 2.0 * hi * lo) + lo * lo
    return math.fsum((1.0, -p, -e))


def tan(x: float) -> float:
    return math.tan(x) if math.isfinite(x) else nan


def tanh(x: float) -> float:
    return math.tanh(x)


def log1p(x: float) -> float:
    if x > -1.0:
        return math.log1p(x)
    return -inf if x == -1.0 else nan


def clamp(x: float, lo: float | None, hi: float | None) -> float:
    """torch's clamp: nan stays nan, a nan bound gives nan; min is applied first, then max (so min > max gives max)."""
    if lo is not None and (lo != lo or x < lo):
        x = float(lo)
    if hi is not None and (hi != hi or x > hi):
        x = float(hi)
    return x
