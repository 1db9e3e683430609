"""``micrograph.autograd.function``: where torch keeps ``Function`` and ``once_differentiable``."""

from micrograph.function import BackwardCFunction, Function, once_differentiable

__all__ = ["BackwardCFunction", "Function", "once_differentiable"]
