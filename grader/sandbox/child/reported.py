"""What a step reports about itself, made safe to send: a probe's answer copied into exact JSON
types (so no object of the submission's reaches the encoder) and an error located in the
submission's file. Apart from the driver (``main``) because the diagram step
(``diagram_step``) and the test steps make their records with the same two."""

from __future__ import annotations

from typing import Any

from grader.sandbox.child import wire
from grader.sandbox.child.alarm import Overrun
from grader.sandbox.child.copies import StoppedCopy
from grader.sandbox.child.located import located, probe_step
from grader.sandbox.child.wire import ErrorRecord
from grader.spec import probe


class NotPlain(Exception):
    """A probe returned something other than plain JSON (a bug in the probe)."""


def error_record(exc: BaseException, submission: str) -> ErrorRecord:
    """The exception, located at the deepest frame of the submission's file (if any), with the
    submission's function that called that one (``located``)."""
    function, caller, line = exc.where if isinstance(exc, StoppedCopy) else located(exc, submission)
    step = probe_step(exc, submission)
    if isinstance(exc, SyntaxError) and exc.filename == submission:
        line = exc.lineno
        message = exc.msg
    elif isinstance(exc, SystemExit):
        message = probe.exit_text(exc.code)  # sys.exit(3), exit(3) and raise SystemExit(3) alike
    else:
        message = probe.first_line(exc)
    kind = exc.kind if isinstance(exc, Overrun) else type(exc).__name__
    return {"type": kind, "message": message, "function": function, "caller": caller, "line": line,
            "step": step, "fresh": False}


def probe_error(exc: BaseException) -> ErrorRecord:
    """A probe that failed on its own (its answer not plain JSON): the grader's bug, never the submission's."""
    return {"type": wire.PROBE_ERROR, "message": probe.error_text(exc), "function": None,
            "caller": None, "line": None, "step": None, "fresh": False}


def plain(value: Any, depth: int = 0) -> Any:
    """A copy made only of exact JSON types: a student's object can never reach the encoder."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if depth < wire.MAX_DEPTH and kind in (list, tuple):
        return [plain(v, depth + 1) for v in value]
    if depth < wire.MAX_DEPTH and kind is dict and all(type(k) is str for k in value):
        return {k: plain(v, depth + 1) for k, v in value.items()}
    raise NotPlain(f"probe returned a {kind.__name__}, not plain JSON")
