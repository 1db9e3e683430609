"""Anomaly detection: ``set_detect_anomaly(True)`` / ``with detect_anomaly():``, as ``torch/autograd/anomaly_mode.py``.

The version-counter error's own hint names it. While it is on, every node remembers the stack of the forward call that
made it, and a backward that fails in a node first warns with that stack: the student sees *which line* made the op.
With ``check_nan`` (the default) a nan gradient is an error. Like torch's, the flag is global to the process (not per
thread).
"""

from __future__ import annotations

import traceback
import warnings
from types import SimpleNamespace
from typing import Any

ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                   "enabled for debugging.")


state = SimpleNamespace(enabled=False, check_nan=True)  # the mode, one for the process


def is_anomaly_enabled() -> bool:
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return state.check_nan


class _AnomalySwitch:
    """Sets the mode on ``__enter__`` and restores it on exit; not a decorator (torch's is not callable)."""

    def __init__(self, mode: bool, check_nan: bool) -> None:
        self._previous = (state.enabled, state.check_nan)
        self._target = (mode, check_nan)

    def __enter__(self) -> None:
        _check_bools(*self._target)  # detect_anomaly(check_nan=1) fails here, on entering, as torch's
        state.enabled, state.check_nan = self._target

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.check_nan = self._previous


def _check_bools(mode: Any, check_nan: Any) -> None:
    """torch's ``set_anomaly_enabled(enabled, check_nan)`` takes bools only, with its argument parser's text."""
    for position, (name, value) in enumerate((("enabled", mode), ("check_nan", check_nan)), start=1):
        if not isinstance(value, bool):
            kind = "Tensor" if hasattr(value, "grad_fn") else type(value).__name__
            raise TypeError(f"set_anomaly_enabled(): argument '{name}' (position {position}) must be bool, not {kind}")


class detect_anomaly(_AnomalySwitch):
    """A context manager that turns anomaly detection on inside it, with torch's warning."""

    def __init__(self, check_nan: bool = True) -> None:
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)
        super().__init__(True, check_nan)


class set_detect_anomaly(_AnomalySwitch):
    """``set_detect_anomaly(True)`` switches it on now; as a context manager it restores the old mode after."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        super().__init__(mode, check_nan)
        super().__enter__()

    def __enter__(self) -> None:
        pass  # already switched by the constructor


def stamp(node: Any) -> None:
    """Remember the forward call's stack on ``node`` (called only while anomaly detection is on)."""
    node.metadata["traceback_"] = "".join(traceback.format_stack()[:-2])


def check_nan(node: Any, outputs: list[Any]) -> None:
    """A nan among the gradients a node sends is an error (checked, as torch does, after its post-hooks)."""
    for i, g in enumerate(outputs if state.check_nan else ()):
        x = g if g is None or type(g) is float else g.item()
        if x != x:
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


def warn_failure(node: Any) -> None:
    """Before an error escapes a node's turn (its hooks included): where the node was made (if in anomaly mode)."""
    trace = getattr(node, "metadata", {}).get("traceback_")
    text = ("Traceback of forward call that caused the error:\n" + trace if trace else "No forward pass information "
            "available. Enable detect anomaly during forward pass for more information.")  # torch's two texts
    warnings.warn(f"Error detected in {node.name()}. {text}", UserWarning, stacklevel=2)
