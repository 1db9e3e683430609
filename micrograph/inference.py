"""``inference_mode``: ``no_grad``'s stricter sibling, as torch's.

Inside it nothing is recorded, and every Value made there is an *inference
value* (``is_inference()``): outside the block it may not be changed in place,
may not be made to require grad, and an op that would save it for backward
refuses it, each with torch's error.  ``no_grad`` results carry no such mark.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from micrograph.grad_mode import is_grad_enabled, set_grad_enabled, set_inference

F = TypeVar("F", bound=Callable[..., Any])

SAVED_ERROR = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
)
INPLACE_ERROR = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal "
    "tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
)
VERSION_ERROR = "Inference tensors do not track version counter."
REQUIRES_GRAD_ERROR = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


class _State:
    enabled = False


state = _State()


def is_inference_mode_enabled() -> bool:
    return state.enabled


class inference_mode:
    """``with inference_mode():`` (or ``inference_mode(False)``), also a decorator with or without parentheses."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode) and not isinstance(mode, bool):
            return cls()(mode)  # @inference_mode without parentheses
        return super().__new__(cls)

    def __init__(self, mode: Any = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self._previous = (state.enabled, is_grad_enabled())
        state.enabled = self.mode
        set_inference(self.mode)
        set_grad_enabled(not self.mode)  # torch's InferenceMode(enabled) sets grad mode to !enabled

    def __exit__(self, *exc: object) -> None:
        state.enabled = self._previous[0]
        set_inference(self._previous[0])
        set_grad_enabled(self._previous[1])

    def __call__(self, fn: F) -> F:
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


def mark(v: Any) -> Any:
    """A value made now: an inference value inside ``inference_mode`` (every result there is one, in torch)."""
    if state.enabled:
        v._inference = True
    return v


def check_save(item: Any) -> None:
    """An op about to save ``item`` for backward: refused if it was made in inference mode."""
    if item._inference:
        raise RuntimeError(SAVED_ERROR)


def check_version(v: Any) -> None:
    """``v._version`` of an inference value: torch keeps no version counter for one."""
    raise RuntimeError(VERSION_ERROR)


def check_inplace(v: Any) -> None:
    if v._inference and not state.enabled:
        raise RuntimeError(INPLACE_ERROR)


def check_requires_grad(v: Any, flag: bool) -> None:
    if flag and v._inference and not state.enabled:
        raise RuntimeError(REQUIRES_GRAD_ERROR)
