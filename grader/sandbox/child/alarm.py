"""Time limits inside the sandboxed child: the import of the submission and each probe get their
share of the exercise's time, and an alarm that raises in whatever the submission runs when the
share is spent.

A share is counted in CPU seconds, so a probe's verdict does not depend on how busy the machine
is; a wall-clock share, ``Limits.wall_factor`` times longer, stops a probe that waits instead of
computing (a sleep, a blocked read)."""

from __future__ import annotations

import _thread
import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from sys import getprofile, gettrace  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType

MIN_PROBE_SECONDS = 1.0
AGAIN_SECONDS = 0.01
"""How soon an alarm that rang inside the grader's profile hook rings again (``ring_later``)."""


class Overrun(BaseException):
    """Raised by SIGALRM when a probe overruns its share of the time limit: a BaseException, so
    the submission's ``except Exception`` does not swallow it.  ``kind`` is the wire's name
    for it (``wire.PROBE_TIMEOUT``, ``wire.DIAGRAM_TIMEOUT`` or ``wire.IMPORT_TIMEOUT``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Share:
    """A probe's time: ``cpu`` seconds of this process's CPU and ``wall`` seconds of the clock,
    and what to raise when either runs out."""

    cpu: float
    wall: float
    cpu_overrun: Overrun
    wall_overrun: Overrun


@contextlib.contextmanager
def alarm(share: Share) -> Iterator[None]:
    """Raise the share's overrun in whatever runs if the block uses more than ``share.cpu``
    seconds of CPU (SIGPROF, which counts this process's user and system time) or takes more
    than ``share.wall`` seconds (SIGALRM).  Where there is no interval timer (Windows) a timer
    thread (``TimerAlarm``) rings after ``share.wall`` seconds, the clock being the one measure
    there.  The alarm may ring as the block ends, so the caller catches around the block."""
    if not hasattr(signal, "setitimer"):
        with _timer_alarm.armed(share.wall, share.wall_overrun):
            yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        if ring_later(signum, frame):
            return
        raise share.cpu_overrun if signum == signal.SIGPROF else share.wall_overrun

    signal.signal(signal.SIGPROF, ring)
    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_PROF, share.cpu)
    signal.setitimer(signal.ITIMER_REAL, share.wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)


def in_hook(frame: FrameType | None) -> bool:
    """Whether ``frame``, or a frame it was called from, runs the profile or trace hook set now
    (a probe's ``sample``, called by the interpreter at each call and return it watches)."""
    codes = [getattr(hook, "__code__", None) for hook in (getprofile(), gettrace()) if hook is not None]
    while frame is not None:
        if any(frame.f_code is code for code in codes):
            return True
        frame = frame.f_back
    return False


def ring_later(signum: int, frame: FrameType | None) -> bool:
    """Whether the alarm ``signum`` interrupted a profile or trace hook (``in_hook``), and was set
    to ring again ``AGAIN_SECONDS`` later instead.  An exception raised inside a hook makes the
    interpreter unset it, with the audit event ``sys.setprofile`` raised from the frame the hook
    watched: the student's, which the sentinel would flag as reaching for the probes' hooks."""
    if not in_hook(frame):
        return False
    signal.setitimer(signal.ITIMER_PROF if signum == signal.SIGPROF else signal.ITIMER_REAL, AGAIN_SECONDS)
    return True


@contextlib.contextmanager
def own_share(share: Share) -> Iterator[None]:
    """The block under ``share`` (``alarm``), the running block's alarm waiting meanwhile: what
    that one had left of CPU and of the clock runs on once the block ends.  A fresh copy's top
    level runs so (``grader.spec.copy_share``): the test that made the copy does not pay for it.
    Where there is no interval timer (Windows) the block runs under the running block's alarm."""
    if not hasattr(signal, "setitimer"):
        yield
        return
    handlers = signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)
    cpu_left, wall_left = signal.getitimer(signal.ITIMER_PROF)[0], signal.getitimer(signal.ITIMER_REAL)[0]
    try:
        with alarm(share):
            yield
    finally:
        signal.signal(signal.SIGPROF, handlers[0])
        signal.signal(signal.SIGALRM, handlers[1])
        signal.setitimer(signal.ITIMER_PROF, cpu_left)
        signal.setitimer(signal.ITIMER_REAL, wall_left)


class TimerAlarm:
    """The alarm where there is no SIGALRM (Windows): a timer thread interrupts the main
    thread (``_thread.interrupt_main``, delivered as SIGINT to the handler installed here),
    which raises the overrun of the block still armed.  Each block has a number of its own, so
    an interruption that arrives late, after its block ended, is ignored rather than raised in
    the next one.  A blocking call the interruption cannot break is left to the parent's
    wall-clock kill."""

    def __init__(self) -> None:
        self._blocks = 0  # blocks armed so far: the last one's number
        self._armed = 0  # the number of the block running now; 0 when none is
        self._rung = 0  # the number of the block whose timer rang last
        self._overrun: Overrun | None = None

    def _ring(self, *_: object) -> None:
        if self._armed and self._rung == self._armed and self._overrun is not None:
            self._armed = 0
            raise self._overrun

    def _expire(self, block: int) -> None:
        self._rung = block
        _thread.interrupt_main()

    @contextlib.contextmanager
    def armed(self, seconds: float, overrun: Overrun) -> Iterator[None]:
        if self._blocks == 0:
            signal.signal(signal.SIGINT, self._ring)
        self._blocks += 1
        self._armed, self._overrun = self._blocks, overrun
        timer = threading.Timer(seconds, self._expire, args=(self._blocks,))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            self._armed = 0
            timer.cancel()
            timer.join()


_timer_alarm = TimerAlarm()


def probe_seconds(time_left: float, probes_left: int) -> float:
    """A probe's budget (of CPU or of the clock): an equal share of the time left, one share
    kept in reserve.

    Fast probes leave their share to later ones (a slow but honest probe gets the time the
    others did not use), yet probes that all loop take ``probes_left / (probes_left + 1)`` of
    the time left between them, so the child reports every test before the grader kills it.
    """
    return max(MIN_PROBE_SECONDS, time_left / (probes_left + 1))
