"""micrograph: a scalar autograd engine that behaves like PyTorch's.

docs/engine.md walks the core file by file, in reading order (``grad_mode``, ``node``, ``ops``,
``value``, ``engine``, ``hooks``, ``function``); the rest is library around it, through its public names.
"""

from micrograph.engine import backward, grad
from micrograph.functional import (
    abs, add, clamp, clip, cos, div, eq, exp, ge, gt, le, log, log1p, lt, maximum, mean, minimum, mm, mul, ne,
    neg, ones_like, pow, reciprocal, relu, sigmoid, sin, sqrt, square, sub, sum, tan, tanh, where, zeros_like,
)
from micrograph.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from micrograph.node import AccumulateGrad, Node, RemovableHandle
from micrograph.value import Value

__version__ = "0.1.0"

from micrograph import autograd, nn, optim
from micrograph.anomaly import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from micrograph.function import Function
from micrograph.gradcheck import gradcheck, gradgradcheck
from micrograph.inference import inference_mode, is_inference_mode_enabled
from micrograph.seeding import initial_seed, manual_seed

__all__ = [
    "AccumulateGrad", "Function", "Node", "RemovableHandle", "Value",
    "abs", "add", "autograd", "backward", "clamp", "clip", "cos", "detect_anomaly", "div", "enable_grad", "eq",
    "exp", "ge", "grad", "gradcheck", "gradgradcheck", "gt", "inference_mode", "initial_seed",
    "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "is_grad_enabled", "is_inference_mode_enabled", "le",
    "log", "log1p", "lt", "manual_seed", "maximum", "mean", "minimum", "mm", "mul", "ne", "neg", "nn", "no_grad",
    "ones_like", "optim", "pow", "reciprocal", "relu", "set_detect_anomaly", "set_grad_enabled", "sigmoid", "sin", "sqrt",
    "square", "sub", "sum", "tan", "tanh", "where", "zeros_like",
]
