"""Adapters: the same workload code drives micrograph, micrograd and PyTorch.

Each adapter exposes ``leaf(x, grad)`` and ``backward(y)``, plus ``grad(v)`` and
``update(p, lr)`` for training; the workloads use only Python operators on
top, so every engine runs the very same program.  micrograd builds its
topological order recursively, so it runs inside a thread with a large stack
and a raised recursion limit, and still fails beyond what that allows.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Engine:
    name: str
    leaf: Callable[[float, bool], Any]
    backward: Callable[[Any], None]
    grad: Callable[[Any], float]
    update: Callable[[Any, float], None]
    total: Callable[[list[Any]], Any]  # the engine's own way to sum many values
    deep_ok: bool = True  # False: recursion-bound backward (micrograd)


def micrograph() -> Engine:
    import micrograph as mg

    def update(p: Any, lr: float) -> None:
        with mg.no_grad():
            p -= lr * p.grad.item()

    return Engine(
        "micrograph",
        leaf=lambda x, g: mg.Value(x, requires_grad=g),
        backward=lambda y: y.backward(),
        grad=lambda v: v.grad.item(),
        update=update,
        total=mg.sum,
    )


def micrograd() -> Engine | None:
    try:
        from micrograd.engine import Value
    except ImportError:
        return None

    def update(p: Any, lr: float) -> None:
        p.data -= lr * p.grad

    def zero_then_backward(y: Any) -> None:
        y.backward()

    return Engine(
        "micrograd",
        leaf=lambda x, g: Value(x),
        backward=zero_then_backward,
        grad=lambda v: v.grad,
        update=update,
        total=lambda vs: sum(vs[1:], vs[0]),
        deep_ok=False,
    )


def torch_scalars() -> Engine | None:
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)

    def update(p: Any, lr: float) -> None:
        with torch.no_grad():
            p -= lr * p.grad

    return Engine(
        "torch",
        leaf=lambda x, g: torch.tensor(x, dtype=torch.float64, requires_grad=g),
        backward=lambda y: y.backward(),
        grad=lambda v: v.grad.item(),
        update=update,
        total=lambda vs: torch.stack(vs).sum(),
    )


def available() -> list[Engine]:
    return [e for e in (micrograph(), micrograd(), torch_scalars()) if e is not None]


def run_deep(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a thread with a 512 MiB stack and a high recursion limit (for micrograd)."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - reported, not hidden
            result["error"] = e

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size(512 * 1024 * 1024)
    sys.setrecursionlimit(10_000_000)
    try:
        t = threading.Thread(target=target)
        t.start()
        t.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if "error" in result:
        raise result["error"]
    return result["value"]
