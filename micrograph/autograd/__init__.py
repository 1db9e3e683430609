"""``micrograph.autograd``: the names torch keeps under ``torch.autograd``, so that a line written for torch
(``torch.autograd.functional.jacobian(f, (x, y))``) runs here with ``micrograph`` in its place."""

import warnings
from operator import index

from micrograph.anomaly import detect_anomaly, set_detect_anomaly
from micrograph.autograd import function, functional
from micrograph.engine import backward, grad
from micrograph.function import Function
from micrograph.grad_mode import enable_grad, no_grad, set_grad_enabled
from micrograph.gradcheck import gradcheck, gradgradcheck
from micrograph.inference import inference_mode
from micrograph.value import NOT_A_TENSOR, VOLATILE_REMOVED, Value


class _VariableMeta(type):
    def __instancecheck__(cls, other: object) -> bool:  # in torch every tensor is a Variable: here every Value
        return isinstance(other, Value)


class Variable(metaclass=_VariableMeta):
    """The documents' ``Variable(tensor, requires_grad=True)``.  Since PyTorch 0.4 a tensor is a Variable; torch keeps
    the name for old code, as a new leaf on the data's storage and version counter: its ``detach()``."""

    def __new__(cls, data: Value, requires_grad: bool = False, volatile: bool = False) -> Value:  # type: ignore[misc]
        flag, volatile = index(requires_grad) != 0, index(volatile) != 0  # parsed first, as integers (format "b")
        if volatile:  # removed in torch 0.4, still taken by its Variable
            warnings.warn(VOLATILE_REMOVED, stacklevel=2)
            if flag:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if not isinstance(data, Value):
            raise TypeError(NOT_A_TENSOR.format(type(data).__name__))
        return data.detach().requires_grad_(flag)


__all__ = ["Function", "Variable", "backward", "function", "detect_anomaly", "enable_grad", "functional", "grad",
           "gradcheck", "gradgradcheck", "inference_mode", "no_grad", "set_detect_anomaly", "set_grad_enabled"]
