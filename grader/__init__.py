"""The ``grade`` command's package; ``grader.check("ex03")`` grades from a notebook.

``check`` is loaded on first use (PEP 562): the sandbox's child imports this package too, and
must load no parent-side module."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["check"]


def __getattr__(name: str) -> Any:
    if name == "check":  # by name: nothing parent-side is imported until a notebook asks
        return importlib.import_module("grader.notebook_check").check
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
