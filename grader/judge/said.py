"""The student's own error inside a probe's exception that tells it with its cause
(``grader.judge.caused_errors``): the probe raises its own exception, whose message holds the
fact's words and, at its end, the student's error as ``"<Type>: <message>"``."""

from __future__ import annotations

from typing import Callable

from grader.sandbox.child.wire import ErrorRecord
from grader.spec.probe import MAX_TEXT

Tell = Callable[[ErrorRecord], str]
"""How the student's own error is said (``explain.test_error`` with the run's limits and line names)."""


def said_error(error: ErrorRecord, said: str) -> ErrorRecord:
    """The error a probe's own exception carries as ``"<Type>: <message>"`` at the end of its
    message (the student's error, raised again with a fact before it), as an error record of its
    own; where the child cut the message, its text is told as cut."""
    kind, _sep, text = said.partition(": ")
    if len(error["message"]) >= MAX_TEXT:
        text = text.rsplit(" ", 1)[0] + " …"
    return {**error, "type": kind, "message": text}
