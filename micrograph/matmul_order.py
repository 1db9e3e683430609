"""The order in which torch's matrix products add, for ``nn.Linear`` (``linear.py``).

torch 2.13's CPU wheel computes ``addmm`` with MKL's ``dgemm``.  With
cancellation (``1e16 + 1 - 1e16``) the order of the additions decides the
result, so micrograph replays MKL's order.  It was found by experiment on the
reference machine (AMD EPYC, where MKL runs its SSE2 kernels; tests/parity
program 105 and ``scripts/matmul_order_probe.py``): putting ``2**60`` and
``-2**60`` on two products and ones elsewhere shows which products were summed
before the two met (FPRev's method), and ``(1+2**-30)**2`` against its rounded
negation shows whether a multiply-add is fused.  What it found:

* small products (fewer than 4 rows or 12 columns in the result): every entry is
  a dot product in SSE2 lanes: ``p`` leading products summed one by one into
  lane 0, then pairs of products into two lanes of ``nacc`` accumulators, a
  scalar tail, the lanes added, and the bias added last; no fused multiply-add.
  Which ``p``/``nacc`` depends on the entry's place (see :func:`_kernel`);
* bigger ones: entries in full blocks of 4 rows x 12 columns start from the bias
  and add each product with a fused multiply-add, in order; the rows and columns
  left over are small products of their own;
* the backward products (``grad @ weight``, ``input.t() @ grad``) add in order,
  fused inside full 4 x 12 blocks of their result.

Measured with ``scripts/matmul_order_probe.py`` (300 random layers of
cancellation-heavy numbers, 1-12 rows, 1-64 inputs, 1-16 outputs; seed 1, then
seed 2), entries equal to torch's bit for bit: forward 16,175 of 16,397 and
16,413 of 16,600; input gradient 29,415 of 29,540 and 29,288 of 29,402; weight
gradient 33,408 of 33,475 and 37,374 of 37,443; bias gradient 2,338 of 2,489 and
2,359 of 2,542 (micrograph's model before, products summed in torch's reduction
order and then the bias: 65%, 60%, 63% and 62% on seed 1).  Not matched: the
rows left over in 5-11-row batches of wide layers, some one-input layers, the
first column of some backward products, part of the bias gradient of tall batches.
MKL picks its kernels by CPU: where it runs AVX2 or AVX-512 code the order (and
the fusing) may differ; these results are this machine's, as torch's own are.
"""

from __future__ import annotations

import math
from typing import Sequence

from micrograph.ieee import torch_sum

ROWS_BLOCK, COLUMNS_BLOCK = 4, 12  # MKL's register block of the bigger kernel (fused multiply-adds)


def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` rounded once (Python 3.11 has no ``math.fma``): Dekker's exact product, then ``fsum``."""
    p = a * b
    if not (math.isfinite(p) and math.isfinite(c)):
        return p + c
    ah, al = _split(a)
    bh, bl = _split(b)
    error = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a * b == p + error exactly
    return math.fsum((p, error, c))


def _split(x: float) -> tuple[float, float]:
    c = 134217729.0 * x  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - x)
    return hi, x - hi


def fused(rows: int, columns: int, i: int, j: int) -> bool:
    """Whether entry (i, j) of a ``rows x columns`` result lies in a full block of the fused kernel."""
    return (rows >= ROWS_BLOCK and columns >= COLUMNS_BLOCK
            and i < rows // ROWS_BLOCK * ROWS_BLOCK and j < columns // COLUMNS_BLOCK * COLUMNS_BLOCK)


def in_order(a: Sequence[float], b: Sequence[float], start: float = 0.0, fuse: bool = False) -> float:
    """``start + a[0]*b[0] + a[1]*b[1] + ...`` added one by one, each product fused or rounded first."""
    acc = start
    for x, y in zip(a, b):
        acc = fma(x, y, acc) if fuse else acc + x * y
    return acc


def linear_entry(a: Sequence[float], b: Sequence[float], bias: float | None,
                 shape: tuple[int, int, int], at: tuple[int, int]) -> float:
    """Entry ``at`` of ``bias + input @ weight.t()`` for a ``rows x inputs x outputs`` ``shape``:
    row ``a`` of the input times row ``b`` of the weight, as MKL adds it."""
    rows, n, columns = shape
    r, j = at
    if rows >= ROWS_BLOCK and columns >= COLUMNS_BLOCK:
        full_rows, full_columns = rows // ROWS_BLOCK * ROWS_BLOCK, columns // COLUMNS_BLOCK * COLUMNS_BLOCK
        if r < full_rows and j < full_columns:
            return in_order(a, b, 0.0 if bias is None else bias, fuse=True)
        if r >= full_rows:  # the rows left over, over every column
            return linear_entry(a, b, bias, (rows - full_rows, n, columns), (r - full_rows, j))
        return linear_entry(a, b, bias, (full_rows, n, columns - full_columns), (r, j - full_columns))
    total = _lanes([x * y for x, y in zip(a, b)], *_kernel(rows, n, columns, r, j))
    return total if bias is None else total + bias


def _kernel(rows: int, n: int, columns: int, r: int, j: int) -> tuple[int, int, int]:
    """(leading products, accumulators, products per step) of the SSE2 kernel for entry (r, j).

    One row or one column (a matrix times a vector): entries in blocks of 4 lead with
    1 or 2 products so the rest pairs up; the two after them use 2 then 1 accumulators,
    a last one 4, all stepping 8 products.  Otherwise: a row that starts on an odd
    address leads with one product; 4-column blocks use 1 accumulator, the rest 4.
    """
    if rows == 1 or columns == 1:
        length, i = max(rows, columns), (j if rows == 1 else r)
        blocks = length // 4 * 4
        if i < blocks:
            return (2 - n % 2, 1, 2)
        if length - blocks >= 2 and i < blocks + 2:
            return (2, 2, 8) if i == blocks else (2, 1, 8)
        return (2, 4, 8)
    lead = (r * n) % 2
    return (lead, 1, 2) if j < columns // 4 * 4 else (lead, 4, 8)


def _lanes(products: list[float], lead: int, accumulators: int, step: int) -> float:
    """The products added as the SSE2 kernel adds them (see :func:`_kernel`)."""
    n = len(products)
    lanes = [[0.0, 0.0] for _ in range(accumulators)]
    i = min(lead, n)
    if i:
        first = products[0]
        for x in products[1:i]:
            first += x
        lanes[0][0] = first
    end = i + (n - i) // step * step
    while i < end:
        for q in range(accumulators):
            lanes[q][0] += products[i + 2 * q]
            lanes[q][1] += products[i + 2 * q + 1]
        i += 2 * accumulators
    while len(lanes) > 1:  # (0 + 1) + (2 + 3), lane by lane
        lanes = [[lanes[q][0] + lanes[q + 1][0], lanes[q][1] + lanes[q + 1][1]] for q in range(0, len(lanes), 2)]
    total = lanes[0][0] + lanes[0][1]
    for x in products[i:]:
        total += x
    return total


def bias_grad(column: Sequence[float], columns: int, j: int) -> float:
    """Entry ``j`` of ``grad.sum(0)`` (the bias's gradient) for a ``rows x columns`` grad, ``column``
    its j-th column: torch's sum over the rows of a matrix.

    One column is a plain sum (``ieee.torch_sum``); the first multiple of 16 columns add
    their rows one by one (a vector across columns); the other columns keep 4 running sums
    (row ``i`` into sum ``i % 4``) added together at the end.
    """
    if columns == 1:
        return torch_sum(list(column))
    if j < columns // 16 * 16:
        return in_order(column, [1.0] * len(column))
    sums = [0.0, 0.0, 0.0, 0.0]
    for i, x in enumerate(column):
        sums[i % 4] += x
    return ((sums[0] + sums[1]) + sums[2]) + sums[3]
