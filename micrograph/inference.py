"""``inference_mode``: ``no_grad``'s stricter sibling, as torch's.

Inside it nothing is recorded, even under ``enable_grad``.  torch's further rules for the
*inference tensors* made there (no version counter, refused when saved for backward or changed
in place outside the block) are not modelled: see docs/engine.md.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from micrograph.grad_mode import is_grad_enabled, set_grad_enabled, set_inference

F = TypeVar("F", bound=Callable[..., Any])



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
