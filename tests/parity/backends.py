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
    "is_anomaly_enabled is_anomaly_check_nan_enabled is_inference_mode_enabled ones_like zeros_like"
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
    #: ``torch.optim`` / ``micrograph.optim``: ``SGD`` over a list of leaves or a layer's ``parameters()``
    optim: Any
    #: ``torch.nn`` / ``micrograph.nn``: ``Module``, ``Parameter`` for a program's own module
    nn: Any
    inference_mode: Any

    def _bind(self, module: Any) -> None:
        for fn in FUNCTIONS:
            setattr(self, fn, getattr(module, fn))

    def value(self, x: float, requires_grad: bool = False) -> Any:
        raise NotImplementedError

    def sum(self, values: list[Any]) -> Any:
        raise NotImplementedError

    def mse_loss(self, predictions: list[Any], targets: list[float]) -> Any:
        """``mse_loss`` (the mean of the squared differences) of a list of values against numbers."""
        raise NotImplementedError

    def linear(self, weight: list[list[float]], bias: list[float] | None) -> Any:
        """An ``nn.Linear`` with these numbers: called on a row (or a batch of rows) of values and
        numbers it gives a row (rows) of values; ``.weight`` / ``.bias`` are rows of its parameters."""
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
        self.optim = torch.optim
        self.nn = torch.nn
        self.inference_mode = torch.inference_mode

    def value(self, x: float, requires_grad: bool = False) -> Any:
        return self._torch.tensor(x, dtype=self._torch.float64, requires_grad=requires_grad)

    def sum(self, values: list[Any]) -> Any:
        return self._torch.stack(list(values)).sum()

    def mse_loss(self, predictions: list[Any], targets: list[float]) -> Any:
        torch = self._torch
        return torch.nn.functional.mse_loss(torch.stack(list(predictions)), torch.tensor(targets, dtype=torch.float64))

    def linear(self, weight: list[list[float]], bias: list[float] | None) -> Any:
        return _TorchLinear(self._torch, weight, bias)


class _TorchLinear:
    """torch's ``nn.Linear`` seen as micrograph's: rows of values in and out, parameters as rows.

    The input is stacked into one tensor (numbers as constants); the output is iterated into
    its entries, and the parameters' entries are read through views of ``weight``/``bias`` that
    follow their ``.grad``, so a program reads ``layer.weight[j][k].grad`` on both backends.
    """

    def __init__(self, torch: Any, weight: list[list[float]], bias: list[float] | None) -> None:
        self._torch = torch
        self.module = torch.nn.Linear(len(weight[0]), len(weight), bias=bias is not None).double()
        with torch.no_grad():
            self.module.weight.copy_(torch.tensor(weight, dtype=torch.float64))
            if bias is not None:
                self.module.bias.copy_(torch.tensor(bias, dtype=torch.float64))
        self.weight = [[_Entry(self.module.weight, (j, k)) for k in range(len(weight[0]))] for j in range(len(weight))]
        self.bias = None if bias is None else [_Entry(self.module.bias, (j,)) for j in range(len(bias))]

    def __call__(self, x: list[Any]) -> list[Any]:
        torch = self._torch
        single = not isinstance(x[0], (list, tuple))
        rows = [x] if single else x
        as_tensor = [[v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=torch.float64) for v in row]
                     for row in rows]
        inp = torch.stack([torch.stack(row) for row in as_tensor])
        out = self.module(inp[0] if single else inp)
        return list(out) if single else [list(row) for row in out]

    def parameters(self) -> Any:
        return self.module.parameters()

    def zero_grad(self) -> None:
        self.module.zero_grad()


class _Entry:
    """One entry of a torch parameter, read as micrograph's Parameter is read: ``.grad``, ``item()``."""

    def __init__(self, param: Any, index: tuple[int, ...]) -> None:
        self._param, self._index = param, index

    @property
    def grad(self) -> Any:
        return None if self._param.grad is None else self._param.grad[self._index]

    def item(self) -> float:
        return self._param[self._index].item()


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
        self.optim = micrograph.optim
        self.nn = micrograph.nn
        self.inference_mode = micrograph.inference_mode
        self._sum = micrograph.sum
        self._no_grad = micrograph.no_grad
        self._value = micrograph.Value

    def value(self, x: float, requires_grad: bool = False) -> Any:
        return self._value(x, requires_grad=requires_grad)

    def sum(self, values: list[Any]) -> Any:
        return self._sum(list(values))

    def mse_loss(self, predictions: list[Any], targets: list[float]) -> Any:
        return self.nn.mse_loss(list(predictions), list(targets))

    def linear(self, weight: list[list[float]], bias: list[float] | None) -> Any:
        from micrograph import nn

        layer = nn.Linear(len(weight[0]), len(weight), bias=bias is not None)
        with self._no_grad():
            for row, numbers in zip(layer.weight, weight):
                for p, x in zip(row, numbers):
                    p.fill_(x)
            for p, x in zip(layer.bias or [], bias or []):
                p.fill_(x)
        return layer
