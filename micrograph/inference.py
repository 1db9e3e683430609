"""``inference_mode``: ``no_grad``'s stricter sibling, as torch's.

Inside it nothing is recorded, even under ``enable_grad``, and every Value made there is an *inference value*
(``is_inference()``): outside the block it may not be changed in place, made to require grad, or saved for backward,
each with torch's error. Entering it also turns grad mode off, as torch's ``InferenceMode`` does.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from micrograph.grad_mode import is_grad_enabled, is_inference_mode_enabled, set_grad_enabled, set_inference

F = TypeVar("F", bound=Callable[..., Any])


class inference_mode:
    """``with inference_mode():`` (or ``inference_mode(False)``), ``@inference_mode`` or ``@inference_mode()``."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode) and not isinstance(mode, bool):
            return cls()(mode)  # @inference_mode without parentheses
        return super().__new__(cls)

    def __init__(self, mode: Any = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self._previous = (is_inference_mode_enabled(), is_grad_enabled())
        set_inference(self.mode)
        set_grad_enabled(not self.mode)

    def __exit__(self, *exc: object) -> None:
        set_inference(self._previous[0])
        set_grad_enabled(self._previous[1])

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with inference_mode(self.mode):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]
