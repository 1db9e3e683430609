"""Float functions with IEEE-754 results, as PyTorch computes them.

Python's float arithmetic raises where IEEE (and therefore PyTorch) returns a
value: ``1.0 / 0.0`` is ``ZeroDivisionError``, ``math.exp(1000)`` is
``OverflowError``, ``math.log(0)`` is ``ValueError``.  Every op of the engine
goes through these helpers instead, so ``Value(1) / 0`` is ``inf`` and
``Value(0).log()`` is ``-inf``, gradients included.
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
    if x > 0.0:
        return math.log(x)  # also log(inf) == inf
    if x == 0.0:
        return -inf
    return nan  # negative or nan


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


def pow_number(a: float, p: float) -> float:
    """``a ** p`` for a number ``p``, with PyTorch's special cases.

    torch computes ``x ** 0.5`` as ``sqrt(x)``, ``x ** -0.5`` as ``1 / sqrt(x)``,
    ``x ** 2`` as ``x * x`` and ``x ** -2`` as ``1 / (x * x)`` (and so on), which
    differ from ``pow`` at -0.0, -inf and near overflow: ``(-0.0) ** 0.5`` is -0.0.
    """
    if p == 0.5:
        return sqrt(a)
    if p == -0.5:
        return div(1.0, sqrt(a))
    if p == 2.0:
        return a * a
    if p == 3.0:
        return a * a * a
    if p == -1.0:
        return div(1.0, a)
    if p == -2.0:
        return div(1.0, a * a)
    return pow(a, p)


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

    Plain ``1 - t*t`` rounds twice and is off by an ulp at most points, by far
    more near saturation where the difference cancels.  Dekker's product
    splits ``t*t`` exactly into ``p + e``; ``math.fsum`` then rounds
    ``1 - p - e`` once.  (Python 3.13 has ``math.fma``; 3.11 does not.)
    """
    p = t * t
    c = 134217729.0 * t  # 2**27 + 1: Veltkamp's split of t into two 26-bit halves
    hi = c - (c - t)
    lo = t - hi
    e = ((hi * hi - p) + 2.0 * hi * lo) + lo * lo
    return math.fsum((1.0, -p, -e))


def split(x: float) -> tuple[float, float]:
    """Veltkamp's split of ``x`` into two 26-bit halves with ``hi + lo == x`` exactly."""
    c = 134217729.0 * x  # 2**27 + 1
    hi = c - (c - x)
    return hi, x - hi


def torch_sum(xs: list[float]) -> float:
    """The sum of ``xs`` added in the order torch's CPU kernel adds a float64 vector (AVX2 build).

    torch does not add left to right: it keeps 4 x 4 running sums (four 4-lane
    vectors), each cascaded through 4 levels so rounding errors stay small, adds
    the vectors together, then the tail, then the 4 lanes, and finally adds the
    total to the output's 0.  With cancellation (``[1e16, 1, -1e16, 1]``) the
    order decides the answer; this reproduces torch's up to 32768 numbers (above
    that torch splits the work between threads).
    """
    n = len(xs)
    if n < _LANES:  # no full vector: the scalar loop, from 0
        total = 0.0
        for x in xs:
            total += x
        return 0.0 + total
    vectors = n // _LANES
    rows = vectors // _ILP  # rows of _ILP vectors, summed by the cascade
    width = _ILP * _LANES
    if rows >= 1 << 4:  # long enough for the cascade's levels to matter
        streams = [_cascade(xs[s:rows * width:width], rows) for s in range(width)]
    else:  # every running sum is a plain loop (the usual case: kept fast)
        streams = [0.0] * width
        for base in range(0, rows * width, width):
            for s in range(width):
                streams[s] += xs[base + s]
    lanes = streams[:_LANES]
    for v in range(rows * _ILP * _LANES, vectors * _LANES, _LANES):  # vectors left over after the rows
        for lane in range(_LANES):
            lanes[lane] += xs[v + lane]
    if rows:
        for k in range(1, _ILP):
            for lane in range(_LANES):
                lanes[lane] += streams[k * _LANES + lane]
    total = 0.0
    for x in xs[vectors * _LANES:]:  # the scalar tail
        total += x
    for lane in lanes:
        total += lane
    return 0.0 + total


_LANES = 4  # float64 values in an AVX2 vector
_ILP = 4  # vectors summed side by side


def _cascade(stream: list[float], size: int) -> float:
    """torch's ``multi_row_sum`` for one running sum: 4 levels, each flushed every 2**p additions."""
    power = max(4, ((size - 1).bit_length() if size > 2 else 1) // 4)
    step = 1 << power
    mask = step - 1
    acc = [0.0, 0.0, 0.0, 0.0]
    i = 0
    while i + step <= size:
        a = acc[0]
        for x in stream[i:i + step]:
            a += x
        acc[0] = a
        i += step
        for j in range(1, 4):
            acc[j] += acc[j - 1]
            acc[j - 1] = 0.0
            if i & (mask << (j * power)):
                break
    for x in stream[i:size]:
        acc[0] += x
    return ((acc[0] + acc[1]) + acc[2]) + acc[3]
