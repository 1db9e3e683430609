"""``micrograph.autograd``: the names torch keeps under ``torch.autograd``, so that a line written for torch
(``torch.autograd.functional.jacobian(f, (x, y))``) runs here with ``micrograph`` in its place."""

from micrograph.anomaly import detect_anomaly, set_detect_anomaly
from micrograph.autograd import function, functional
from micrograph.engine import backward, grad
from micrograph.function import Function
from micrograph.grad_mode import enable_grad, no_grad, set_grad_enabled
from micrograph.gradcheck import gradcheck, gradgradcheck

__all__ = ["Function", "backward", "function", "detect_anomaly", "enable_grad", "functional", "grad", "gradcheck",
           "gradgradcheck", "no_grad", "set_detect_anomaly", "set_grad_enabled"]
