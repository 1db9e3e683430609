"""Turn what the child reported about an error, or how it ended, into one sentence a student can
act on.  Limits are named with the numbers of the run's own ``Limits``."""

from __future__ import annotations

from typing import Callable

from grader.judge.status import ERROR, TIMEOUT, Status
from grader.sandbox.child import wire
from grader.sandbox.child.wire import ErrorRecord
from grader.sandbox.run import ChildReport
from grader.spec.limits import Limits, size

# How a line of the graded file is named: "line 12", or "cell 3, line 2" for a notebook.
LineNames = Callable[[int], str]


def _line(line: int, names: LineNames | None) -> str:
    return names(line) if names else f"line {line}"


def _where(error: ErrorRecord, names: LineNames | None = None) -> str:
    if error["function"] and error["line"]:
        return f" (in {error['function']}, {_line(error['line'], names)})"
    return f" ({_line(error['line'], names)})" if error["line"] else ""


def test_error(error: ErrorRecord, display: str, limits: Limits,
               names: LineNames | None = None) -> str:
    """Why a probe failed to observe anything."""
    kind, message = error["type"], error["message"]
    if kind == "NotImplementedError":
        todo = error["function"] or message
        return f"{display} still raises NotImplementedError: fill in {todo}"
    if kind == "MemoryError":
        return f"used more than {size(limits.memory)} of memory{_where(error, names)}"
    if kind == "SystemExit":
        return f"called {message}{_where(error, names)}: return a value instead of exiting"
    if kind in wire.TIMEOUTS:  # the child's soft limits on one probe
        return f"{message}{_where(error, names)}"
    if kind == "RecursionError":
        return f"RecursionError: {message}{_where(error, names)}"
    if kind == wire.PROBE_ERROR:
        return f"could not observe the result: {message}"
    text = f"{kind}: {message}" if message else kind
    if not error["line"]:
        return text + " (raised while the test used what your code returned)"
    where = f" (in {error['function']})" if error["function"] else ""
    said = f": {message}" if message else ""
    return f"your code raised {kind} at {_line(error['line'], names)}{where}{said}"


def import_error(error: ErrorRecord, display: str, limits: Limits,
                 names: LineNames | None = None) -> str:
    """Why the submission could not even be imported."""
    kind, message, line = error["type"], error["message"], error["line"]
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        return f"{kind} at {_line(line, names)}: {message}" if line else f"{kind}: {message}"
    if kind == "SystemExit":
        return f"{display} called {message} while being imported"
    if kind == "MemoryError":
        return f"used more than {size(limits.memory)} of memory while being imported"
    at = f" ({_line(line, names)})" if line else ""
    return f"{display} raised {kind} when imported{at}: {message}"


def is_timeout(error: ErrorRecord) -> bool:
    """Whether a probe's error is its own share of the time running out."""
    return error["type"] == wire.PROBE_TIMEOUT


def silence(report: ChildReport) -> tuple[Status, str]:
    """(status, reason) for a test that never reported back."""
    if report.refused:
        return ERROR, report.refused
    if report.tampered:
        return ERROR, f"the grader's channel was tampered with ({report.tampered})"
    if report.timed_out:
        return TIMEOUT, f"timed out after {report.limits.time:g} s"
    sig = report.signal
    if sig == "SIGXCPU":
        return TIMEOUT, f"used more than {report.limits.cpu_seconds} s of CPU time"
    if sig == "SIGSEGV":
        return ERROR, "crashed (SIGSEGV), perhaps from recursion that never ends"
    if sig is not None:
        return ERROR, f"was killed by {sig}"
    if not report.done:
        return ERROR, f"exited with status {report.returncode} before reporting"
    return ERROR, "did not report"
