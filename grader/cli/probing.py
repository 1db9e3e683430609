"""The isolation probe, started as early as a command can start it and awaited before any child.

``isolation.current()`` starts a throwaway child that goes through the real isolation steps
(``grader.sandbox.isolation``): a Python start of its own, about a tenth of a second on an idle
laptop.  ``grade`` starts it in a thread before the commands are imported (``grader.cli.entry``),
so the probe's child runs while the grader loads; the command awaits its answer before it
starts a child, exactly as it would await a probe started then.  Nothing about the probe
changes, only when it begins.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from grader.sandbox import isolation
from grader.sandbox.isolation import Isolation

COMPLETION_VAR = "_GRADE_COMPLETE"  # click's shell completion: no command runs
_NO_CHILD = frozenset({"list", "-h", "--help"})  # command lines that start no sandboxed child


class Answer:
    """The probe's answer to come, from a thread (what ``concurrent.futures.Future`` offers
    here, without importing it and ``logging`` before the command starts)."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._value: Isolation | None = None
        self._error: Exception | None = None

    def settle(self) -> None:
        """Probe, keep the answer or the error, and wake whoever waits."""
        try:  # the thread imports nothing of its own: two threads importing could deadlock
            self._value = isolation.current()
        except Exception as exc:  # IsolationUnavailable, re-raised where the answer is read
            self._error = exc
        finally:
            self._done.set()

    def exception(self) -> Exception | None:
        """Wait for the probe; its error, or None."""
        self._done.wait()
        return self._error

    def result(self) -> Isolation:
        """Wait for the probe; the mode it found, or its error raised."""
        error = self.exception()
        if error is not None:
            raise error
        assert self._value is not None
        return self._value


_early: Answer | None = None  # started by ``start``, taken by the first ``probing``


def needed(args: list[str]) -> bool:
    """Whether the command line may run a child (so the probe is worth starting): not help,
    ``grade list`` or shell completion.  A wrong guess costs time, never correctness: an
    unneeded probe is awaited at exit, a missing one is started by the command."""
    return COMPLETION_VAR not in os.environ and not _NO_CHILD.intersection(args)


def start() -> None:
    """Start the probe in a thread now; the next ``probing()`` takes its answer."""
    global _early
    _early = _begin()


def _begin() -> Answer:
    answer = Answer()
    threading.Thread(target=answer.settle, name="isolation-probe").start()
    return answer


@contextmanager
def probing() -> Iterator[Answer]:
    """The probe's answer to come: the one ``start`` began (taken, so a second command in this
    process probes afresh, under its own environment), else one started now.  Leaving the block
    waits for the probe, read or not, so no probe outlives its command."""
    global _early
    future, _early = (_early or _begin()), None
    try:
        yield future
    finally:
        future.exception()  # waits; an error is the reader's to raise


def current() -> Isolation:
    """The isolation mode, from the early probe when one runs (``grade --version``)."""
    with probing() as future:
        return future.result()
