"""micrograph: a scalar autograd engine that behaves like PyTorch's.

Where to find each idea:

* ``value.py``      the Value (a one-element tensor): data, storage, versions, in-place ops
* ``node.py``       graph nodes (``grad_fn``), ``AccumulateGrad``, saved values and their checks
* ``ops.py``        the op table: each op's forward, backward and what it saves (math functions: ``ops_math.py``)
* ``engine.py``     the backward pass: dependency counting, hooks, accumulation, ``grad()``
* ``grad_mode.py``  ``no_grad`` / ``enable_grad`` / ``set_grad_enabled``
* ``seeding.py``    ``manual_seed``: the generator that initialises ``nn`` parameters

The modules import each other without a cycle, with one documented seam:
``Value.backward`` imports the engine when it is called, since the engine
itself works on Values.
"""

from micrograph.engine import backward, grad
from micrograph.functional import (
    abs,
    add,
    clamp,
    clip,
    cos,
    div,
    eq,
    exp,
    ge,
    gt,
    le,
    log,
    log1p,
    lt,
    maximum,
    mean,
    minimum,
    mm,
    mul,
    ne,
    neg,
    norm,
    pow,
    reciprocal,
    relu,
    sigmoid,
    sin,
    sqrt,
    square,
    std,
    sub,
    sum,
    tan,
    tanh,
    var,
    where,
)
from micrograph.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from micrograph.node import AccumulateGrad, Node
from micrograph.handles import RemovableHandle
from micrograph.value import Value

__version__ = "0.1.0"

__all__ = [
    "AccumulateGrad", "Node", "RemovableHandle", "Value",
    "abs", "add", "backward", "cos", "div", "enable_grad", "exp", "grad", "is_grad_enabled",
    "log", "mean", "mm", "mul", "neg", "no_grad", "pow", "reciprocal", "relu",
    "set_grad_enabled", "sigmoid", "sin", "sqrt", "sub", "sum", "tanh",
    "clamp", "clip", "eq", "ge", "gt", "le", "log1p", "lt", "maximum", "minimum", "ne", "square",
    "tan", "where", "norm", "std", "var",
]

from micrograph import nn, optim
from micrograph.function import Function
from micrograph.gradcheck import gradcheck, gradgradcheck
from micrograph.seeding import initial_seed, manual_seed
from micrograph import autograd
from micrograph.anomaly import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from micrograph.inference import inference_mode, is_inference_mode_enabled
from micrograph.intra_op import get_num_threads, set_num_threads
from micrograph.dtypes import device, double, float64, int64, long
from micrograph.dtypes import bool_ as bool  # torch.bool; not in __all__, so `import *` keeps the builtin

__all__ += [
    "Function", "autograd", "detect_anomaly", "gradcheck", "gradgradcheck", "initial_seed", "manual_seed", "nn",
    "optim", "set_detect_anomaly", "inference_mode", "is_inference_mode_enabled", "is_anomaly_enabled",
    "is_anomaly_check_nan_enabled", "device", "double", "float64", "int64", "long",
    "get_num_threads", "set_num_threads",
]
