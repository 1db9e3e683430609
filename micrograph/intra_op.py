"""torch's intra-op thread count, which decides how a sum of many values is split.

torch adds a vector of up to 32,768 numbers in one piece (``ieee.torch_sum``);
a longer one it cuts into one piece per thread, sums each piece so, and adds
the pieces' sums in order.  With cancellation the result then depends on the
thread count.  micrograph does the same with its own count: by default the
number of CPUs Python sees (``os.cpu_count()``; torch's default is the number of
physical cores, the same on machines without hyperthreading), or what
``set_num_threads`` says.  Call ``torch.set_num_threads(n)`` and
``micrograph.set_num_threads(n)`` with the same ``n`` to compare the two anywhere.
"""

from __future__ import annotations

import os

from micrograph.ieee import torch_sum

GRAIN = 32768  # torch's internal::GRAIN_SIZE: shorter sums are never split


class _Threads:
    count = max(1, os.cpu_count() or 1)


def get_num_threads() -> int:
    """The thread count sums are split by (torch's ``get_num_threads``)."""
    return _Threads.count


def set_num_threads(n: int) -> None:
    """Split later sums of more than 32,768 values as torch does with ``n`` threads."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _Threads.count = n


def pieces(n: int) -> list[tuple[int, int]]:
    """The ``[begin, end)`` ranges torch's ``parallel_for`` gives its threads for ``n`` values."""
    if n <= GRAIN or _Threads.count == 1:
        return [(0, n)]
    threads = min(_Threads.count, -(-n // GRAIN))
    size = -(-n // threads)
    return [(begin, min(n, begin + size)) for begin in range(0, n, size)]


def split_sum(xs: list[float]) -> float:
    """``sum(xs)`` as torch adds it with this thread count: each piece in its reduction order
    (``ieee.torch_sum``), then the pieces' sums one after the other, from 0."""
    ranges = pieces(len(xs))
    if len(ranges) == 1:
        return torch_sum(xs)
    total = 0.0
    for begin, end in ranges:
        total += torch_sum(xs[begin:end])
    return total
