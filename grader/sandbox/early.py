"""The child's diagram record, handed on as soon as it arrives rather than when the child ends.

The diagram probe runs right after the import, before the tests, and drawing its graph (a
``dot`` run, the backward page) takes about as long as the tests of an exercise.  So the
parent reads the channel's lines as they come in and gives the first ``diagram`` record to a
callback (``grader.judge.diagram.Warming`` draws it then, in a thread): drawing overlaps with
the tests instead of following them.

This is only a head start: the record is decoded with ``wire.decode`` like every record, but
whether the run keeps it is still decided by ``grader.sandbox.run._parse`` once the child
ended; what the callback does with it must not change the grade or the files the student gets.
"""

from __future__ import annotations

from typing import Callable

from grader.sandbox.child import wire
from grader.sandbox.child.wire import DiagramRecord

OnDiagram = Callable[[DiagramRecord], None]
_BEFORE_DIAGRAM = frozenset({"confined", "refused", "import", "flagged"})  # what may come first


class FirstDiagram:
    """Scans a channel's bytes line by line, as they arrive, until its diagram record (given to
    ``then``) or a record that comes after the diagram's place (a test: there is none)."""

    def __init__(self, then: OnDiagram | None) -> None:
        self.then = then
        self.scanned = 0  # bytes of the channel read as whole lines so far
        self.over = then is None

    def feed(self, received: bytes | bytearray) -> None:
        """Look at the lines of ``received`` (the channel so far) not looked at yet."""
        while not self.over:
            end = received.find(b"\n", self.scanned)
            if end < 0:
                return
            line, self.scanned = bytes(received[self.scanned:end]), end + 1
            try:
                record = wire.decode(line)
            except wire.WireError:
                self.over = True  # the final parse says what was wrong
                return
            if record["kind"] == "diagram":
                self.over = True
                self.then(record)  # type: ignore[misc, arg-type]
            elif record["kind"] not in _BEFORE_DIAGRAM:
                self.over = True
