"""Grad mode: whether new operations are recorded in the graph.

PyTorch keeps this flag per thread (``c10/core/GradMode.h``), so a ``no_grad`` block in one thread never stops another
thread from building its graph; ``threading.local`` gives us the same. Beside it, inference mode (``inference.py``),
where even ``enable_grad`` records nothing. The ops ask ``is_recording()``, the two combined, kept as a third flag so
that asking costs one read.
"""

from __future__ import annotations

import functools
import inspect
import threading
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _GradMode(threading.local):
    enabled: bool = True
    inference: bool = False
    recording: bool = True  # enabled and not inference


_mode = _GradMode()


def is_grad_enabled() -> bool:
    return _mode.enabled


def is_recording() -> bool:
    return _mode.recording


def is_inference_mode_enabled() -> bool:
    return _mode.inference


def set_inference(flag: bool) -> None:
    _mode.inference, _mode.recording = flag, _mode.enabled and not flag


def _set_enabled(flag: bool) -> None:
    _mode.enabled, _mode.recording = flag, flag and not _mode.inference


class _GradModeSwitch:
    """Sets grad mode on ``__enter__`` and restores the old mode on ``__exit__``."""

    _target: bool

    def __enter__(self) -> None:
        self._previous = _mode.enabled
        _set_enabled(self._target)

    def __exit__(self, *exc: object) -> None:
        _set_enabled(self._previous)

    def __call__(self, fn: F) -> F:
        target = self._target
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(fn, target)  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with set_grad_enabled(target):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


def _wrap_generator(fn: Callable[..., Any], target: bool) -> Callable[..., Any]:
    """A generator runs in the decorator's mode each time it resumes, and the caller's in between."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gen, throw, sent = fn(*args, **kwargs), False, None
        while True:
            try:
                with set_grad_enabled(target):
                    item = gen.throw(sent) if throw else gen.send(sent)
            except StopIteration as stop:
                return stop.value
            try:
                throw, sent = False, (yield item)
            except BaseException as exc:  # thrown in by the caller: pass it on
                throw, sent = True, exc

    return wrapper


class _BareDecorator(_GradModeSwitch):
    """Also usable without parentheses: ``@no_grad`` as well as ``@no_grad()``."""

    def __new__(cls, func: F | None = None) -> Any:
        switch = super().__new__(cls)
        return switch if func is None else switch(func)


class no_grad(_BareDecorator):
    """Record nothing: for inference, and for updating parameters in place (an optimiser step),
    which would otherwise be recorded or rejected as an in-place change of a leaf."""

    _target = False


class enable_grad(_BareDecorator):
    """Record operations again, even inside a ``no_grad`` block."""

    _target = True


class set_grad_enabled(_GradModeSwitch):
    """A context manager, a decorator, or a plain call: as in PyTorch the constructor switches at once,
    a ``with`` block switches to its mode again (it may be entered long after it was made) and restores the mode
    from before the constructor, a decorator undoes the switch."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}")
        self._target, self._previous = mode, _mode.enabled
        _set_enabled(mode)

    def __enter__(self) -> None:  # the mode to restore is the constructor's: torch's __enter__ switches only
        _set_enabled(self._target)

    def __call__(self, fn: F) -> F:
        _set_enabled(self._previous)
        return super().__call__(fn)
