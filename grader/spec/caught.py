"""Engine errors the student's code caught and went on from, seen by a watched call's profile hook.

An engine function the student's file called that raised (``engine_code.raised_out``) raised
into one of the student's functions.  That function either stopped too (the error went on,
into its caller or out of the watched call: the probe sees it, or its caller catches it) or
caught it and returned normally: the code went on as if the engine's call had done its work
(``try: backward(...) except RuntimeError: pass``).  A profile hook sees an exception leave a
frame as a return of None; the frame's last instruction, a return or not, tells the two apart,
read only of the few frames an engine error raised into (``Caught.pending``), so the hook's
cost on every other return is one test of an empty list.

A call watched without sampling grad mode (a training loop, where ``Call.sample`` on every call
costs too much) has no profile hook of its own: ``caught_seen`` is a lighter one that notes only
these errors, reading an engine frame's code only where the student's module called it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType
from typing import Any

from grader.sandbox.child.guard import LOOKUPS
from grader.spec.engine_code import attribute_read, raised_out, returned_normally
from grader.spec.facts import CONTEXT


class Caught:
    """The engine errors a watched call's student code caught: ``went_on`` holds, for each, the
    engine function that raised (``.name`` for an attribute the code read, whose getter raised)
    and the student's function that caught it, in order."""

    def __init__(self, filename: str) -> None:
        self.filename = filename  # the student's file
        self.pending: list[tuple[str, FrameType]] = []  # an engine function that raised, and the frame it raised into
        self.went_on: list[tuple[str, str]] = []
        self.into: list[FrameType] = []  # every student frame an engine error raised into (kept alive)

    def raised_into(self, engine_frame: FrameType) -> None:
        """``engine_frame``, an engine function the student's file called, ended by raising."""
        caller = engine_frame.f_back  # the student's frame, or the guarded getattr or hasattr it called: hasattr
        if caller is not None:  # catches an AttributeError itself, which is no catch of the student's code
            self.into.append(caller)
            read = attribute_read(caller) if caller.f_code.co_filename == self.filename else None
            self.pending.append((engine_frame.f_code.co_name if read is None else "." + read, caller))

    def returned(self, frame: FrameType) -> None:
        """A frame returns: each engine error that raised into it, it caught (it returned
        normally) or let go on to its caller, which is then the frame to watch while that is the
        student's."""
        if all(into is not frame for _name, into in self.pending):
            return
        normally = returned_normally(frame)
        caller = frame.f_back
        onward = caller if caller is not None and caller.f_code.co_filename == self.filename else None
        left = []
        for name, into in self.pending:
            if into is not frame:
                left.append((name, into))
            elif normally and frame.f_code not in LOOKUPS:
                self.went_on.append((name, frame.f_code.co_name))
            elif normally:
                continue  # the guarded hasattr caught it: the student's code asked, and caught nothing
            elif onward is not None:
                left.append((name, onward))
        self.pending = left

    def raised_here(self, e: BaseException) -> bool:
        """Whether ``e`` went through a frame an engine error raised into during this call: an error
        this call's code met, not one an earlier call left (whose frames are that call's)."""
        return any(tb.tb_frame is frame for tb in _tracebacks(e) for frame in self.into)

    def fact(self) -> dict[str, list[str]]:
        """The CALL fact's context: the first engine function whose error the code caught, and the
        student's function that caught it (none where it caught none)."""
        return {CONTEXT + "caught": list(self.went_on[0])} if self.went_on else {}


def _tracebacks(e: BaseException) -> Iterator[Any]:
    """The entries of ``e``'s traceback, outermost first."""
    tb = e.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next


@contextlib.contextmanager
def caught_seen(caught: Caught, namespace: dict[str, Any] | None) -> Iterator[Caught]:
    """While the block runs, the engine errors that the student's module (its globals ``namespace``)
    caught, into ``caught``: an engine function its code called that ended by raising, and the
    student's frame it raised into, followed until that frame returns.  The profile hook before it
    still hears every event."""
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if previous is not None:
            previous(frame, event, arg)
        if event != "return":
            return
        caller = frame.f_back
        if arg is None and namespace is not None and caller is not None and caller.f_globals is namespace \
                and raised_out(frame):
            caught.raised_into(frame)
        if caught.pending:
            caught.returned(frame)

    setprofile(sample)
    try:
        yield caught
    finally:
        setprofile(previous)
