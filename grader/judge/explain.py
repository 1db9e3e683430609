"""Turn what the child reported about an error into one sentence a student can act on."""

from __future__ import annotations

from typing import Any


def size(n_bytes: int) -> str:
    """``1073741824`` -> ``"1 GiB"``, ``268435456`` -> ``"256 MiB"``."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:g} {unit}"
    return f"{n_bytes} bytes"


def _where(error: dict[str, Any]) -> str:
    if error["function"] and error["line"]:
        return f" (in {error['function']}, line {error['line']})"
    return f" (line {error['line']})" if error["line"] else ""


def test_error(error: dict[str, Any], display: str, memory_limit: int) -> str:
    """Why a probe failed to observe anything."""
    kind, message = error["type"], error["message"]
    if kind == "NotImplementedError":
        todo = error["function"] or message
        return f"{display} still raises NotImplementedError: fill in {todo}"
    if kind == "MemoryError":
        return f"used more than {size(memory_limit)} of memory{_where(error)}"
    if kind == "SystemExit":
        return f"called {message}{_where(error)}: return a value instead of exiting"
    if kind in ("DiagramTimeout", "ProbeTimeout"):  # the child's soft limits on one probe
        return f"{message}{_where(error)}"
    if kind == "RecursionError":
        return f"RecursionError: {message}{_where(error)}"
    if kind == "ProbeError":
        return f"could not observe the result: {message}"
    text = f"{kind}: {message}" if message else kind
    if not error["function"] and not error["line"]:
        return text + " (raised while the test used what your code returned)"
    return text + _where(error)


def import_error(error: dict[str, Any], display: str, memory_limit: int) -> str:
    """Why the submission could not even be imported."""
    kind, message, line = error["type"], error["message"], error["line"]
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        return f"{kind} at line {line}: {message}" if line else f"{kind}: {message}"
    if kind == "SystemExit":
        return f"{display} called {message} while being imported"
    if kind == "MemoryError":
        return f"used more than {size(memory_limit)} of memory while being imported"
    at = f" (line {line})" if line else ""
    return f"{display} raised {kind} when imported{at}: {message}"
