"""Two backends behind one tiny interface, so one program text runs on both.

A parity program receives a backend ``B`` and only ever creates values with
``B.value(...)`` and calls module-level functions through ``B``; everything
else (operators, ``.backward()``, ``.grad``, hooks, in-place ops ...) is called
on the objects themselves, because micrograph copies PyTorch's names.

Neither backend imports its library at module import time: the test suite must
run without torch installed, and the recorder without micrograph.
"""

from __future__ import annotations

from typing import Any, Callable

#: Module-level functions that both libraries expose under the same name.
FUNCTIONS = (
    "add sub mul div pow neg exp log sqrt sin cos tanh sigmoid relu abs "
    "no_grad enable_grad set_grad_enabled is_grad_enabled "
    "clamp clip square tan log1p maximum minimum where eq ne lt le gt ge "
    "is_anomaly_enabled is_anomaly_check_nan_enabled is_inference_mode_enabled norm std var"
).split()


class Backend:
    """What the programs may use; subclasses fill in the library specifics."""

    name: str
    #: The library's value class (``torch.Tensor`` / ``micrograph.Value``).
    value_type: type
    grad: Callable[..., Any]
    backward: Callable[..., Any]
    #: ``torch.autograd`` / ``micrograph.autograd``: Function, gradcheck, functional, anomaly mode ...
    autograd: Any
    inference_mode: Any

    def _bind(self, module: Any) -> None:
        for fn in FUNCTIONS:
            setattr(self, fn, getattr(module, fn))

    def value(self, x: float, requires_grad: bool = False) -> Any:
        raise NotImplementedError

    def sum(self, values: list[Any]) -> Any:
        raise NotImplementedError

    def num(self, v: Any) -> float | None:
        """A value (or a grad, or a number) as a Python float, None stays None.

        ``item()`` rather than ``float()``: torch's ``float(t)`` warns on a
        tensor that requires grad, ``item()`` never does.
        """
        if v is None:
            return None
        if isinstance(v, (int, float)):
            return float(v)
        return v.item()


class TorchBackend(Backend):
    """Leaves are 0-dim float64 tensors, the reference micrograph must match."""

    name = "torch"

    def __init__(self) -> None:
        import torch

        self._torch = torch
        self._bind(torch)
        self.value_type = torch.Tensor
        self.grad = torch.autograd.grad
        self.backward = torch.autograd.backward
        self.autograd = torch.autograd
        self.inference_mode = torch.inference_mode

    def value(self, x: float, requires_grad: bool = False) -> Any:
        return self._torch.tensor(x, dtype=self._torch.float64, requires_grad=requires_grad)

    def sum(self, values: list[Any]) -> Any:
        return self._torch.stack(list(values)).sum()


class MicrographBackend(Backend):
    """The engine under test."""

    name = "micrograph"

    def __init__(self) -> None:
        import micrograph

        self._bind(micrograph)
        self.value_type = micrograph.Value
        self.grad = micrograph.grad
        self.backward = micrograph.backward
        self.autograd = micrograph.autograd
        self.inference_mode = micrograph.inference_mode
        self._sum = micrograph.sum
        self._value = micrograph.Value

    def value(self, x: float, requires_grad: bool = False) -> Any:
        return self._value(x, requires_grad=requires_grad)

    def sum(self, values: list[Any]) -> Any:
        return self._sum(list(values))
