"""The order in which torch's matrix products add, for ``nn.Linear`` (``linear.py``).

torch computes ``addmm`` with MKL's ``dgemm``.  Which order MKL adds the
products of one entry in depends on the machine (its kernels pick their code by
CPU) and on the matrices' sizes; with cancellation the order decides the result.
"""

from __future__ import annotations

from micrograph.ieee import torch_sum


def dot(a: list[float], b: list[float], c: float | None = None) -> float:
    """``c + sum(a[k] * b[k])``: the products rounded, summed in torch's reduction order, then ``c``."""
    total = torch_sum([x * y for x, y in zip(a, b)])
    return total if c is None else c + total
