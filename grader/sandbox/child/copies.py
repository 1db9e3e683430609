"""The time a fresh copy's top level runs under in the worker, and where it ran out.

A test that tells state kept between calls runs the student's file again (``grader.spec.repeat``),
its top level included, under a share of the time like the import's (``grader.spec.copy_share``).
A demo kept at the top level (a 100,000-op chain built and backpropagated) runs there again, and
under the probes' watch it can take many times what it took at the import.  Once a copy's top level
has run out of its share, each later copy in the same worker is stopped at once, told at the same
place: running it again would only spend the same share again, test after test, until the parent
killed the whole run and no later test could say where the time went.  A timeout that went through
the top level is told there (``at_top_level``): the line of the top level that was running, and the
function of the file it called, not only the deepest function the alarm happened to interrupt.
"""

from __future__ import annotations

import contextlib
import math
import traceback
from collections.abc import Callable, Iterator

from grader.sandbox.child import wire
from grader.sandbox.child.alarm import MIN_PROBE_SECONDS, Overrun, Share, own_share
from grader.sandbox.child.located import TOP_LEVEL, clip, located, qualified
from grader.spec.limits import Limits

Where = tuple[str | None, str | None, int | None]  # (function, caller, line), as ``located`` gives


class StoppedCopy(Overrun):
    """A copy's top level out of its share, told where it ran out (``where``), with no frame kept:
    the first copy's frames hold whatever its top level built, a chain of 100,000 Values."""

    def __init__(self, kind: str, message: str, where: Where) -> None:
        super().__init__(kind, message)
        self.where = where


def copy_share(limits: Limits, wall_left: float = math.inf) -> Share:
    """A fresh copy's top level's share of the time (``grader.spec.copy_share``): the import's,
    of CPU and of the clock (``Limits.import_share``), told as the test's time running out; of the
    clock, at most half of ``wall_left``, what the run has left before the parent kills it (the
    import's share and one copy's are the whole run's time: a copy that spent its share on a busy
    machine left no test the time to say where it went)."""
    cpu = limits.import_seconds
    wall = min(cpu * limits.wall_factor, max(wall_left / 2, MIN_PROBE_SECONDS))
    return Share(cpu, wall, Overrun(wire.PROBE_TIMEOUT, f"used more than {cpu:.3g} s of CPU time"),
                 Overrun(wire.PROBE_TIMEOUT, f"timed out after {wall:.3g} s"))


class Copies:
    """The shares of the copies one worker makes; the first overrun, kept to stop the later ones."""

    def __init__(self, limits: Limits, submission: str, wall_left: Callable[[], float]) -> None:
        self.limits, self.submission, self.wall_left = limits, submission, wall_left
        self.stopped: tuple[str, str, Where] | None = None  # the first overrun: kind, message, where

    @contextlib.contextmanager
    def share(self) -> Iterator[None]:
        """A copy's top level under its own share (``alarm.own_share``), or stopped at once when
        an earlier copy's ran out."""
        if self.stopped is not None:
            raise StoppedCopy(*self.stopped)
        share = copy_share(self.limits, self.wall_left())
        try:
            with own_share(share):
                yield
        except Overrun as exc:
            if exc is not share.cpu_overrun and exc is not share.wall_overrun:
                raise  # the test's own share, ringing as this one ended
            self.stopped = (exc.kind, str(exc), at_top_level(exc, self.submission))
            raise StoppedCopy(*self.stopped) from None


def at_top_level(exc: BaseException, submission: str) -> Where:
    """Where ``exc`` went through ``submission``, as ``located`` says, but for a top level that
    ran a function of the file that called others: there the top level's own line, and that
    function as the caller, since the top level's call is what took the time.  A function the top
    level called itself is told by ``located`` (its caller is the top level already)."""
    function, caller, line = located(exc, submission)
    frames = [(frame, lineno) for frame, lineno in traceback.walk_tb(exc.__traceback__)
              if frame.f_code.co_filename == submission]
    tops = [number for number, (frame, _) in enumerate(frames) if frame.f_code.co_name == TOP_LEVEL]
    if not tops or caller == TOP_LEVEL:
        return function, caller, line
    top = tops[-1]
    called = clip(qualified(frames[top + 1][0])) if top + 1 < len(frames) else None
    return TOP_LEVEL, called, frames[top][1]
