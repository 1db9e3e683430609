"""An alarm that rings while a probe's profile hook runs is rung again a moment later, outside it.

An exception raised inside a profile hook makes the interpreter unset the hook, raising the audit
event ``sys.setprofile`` from the frame the hook watched: the student's.  The sentinel would read
that as the submission reaching for the probes' hooks, and a correct answer whose top level only
took long (a demo on a 100,000-op chain, run again in a fresh copy under a probe's hook) was
flagged for the instructor.  Here the alarm is made to ring inside the hook itself
(``signal.raise_signal``): the hook stays set, and the overrun is raised in the watched code."""

from __future__ import annotations

import signal
import sys
from types import FrameType

import pytest

from grader.sandbox.child import wire
from grader.sandbox.child.alarm import Overrun, Share, alarm, in_hook

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interval timers (not Windows)")


def _watched() -> int:
    return 1


def test_an_alarm_inside_a_profile_hook_rings_again_outside_it() -> None:
    share = Share(600, 600, Overrun(wire.PROBE_TIMEOUT, "cpu"), Overrun(wire.PROBE_TIMEOUT, "wall"))
    rung: list[bool] = []
    hooks_seen: list[object] = []

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and not rung:
            rung.append(True)
            signal.raise_signal(signal.SIGALRM)  # its handler runs here, inside the hook
            hooks_seen.append(sys.getprofile())

    previous = sys.getprofile()
    with pytest.raises(Overrun) as stopped:
        with alarm(share):
            sys.setprofile(sample)
            try:
                while True:  # the watched code, until the alarm rung again stops it
                    _watched()
            finally:
                hooks_left = sys.getprofile()
                sys.setprofile(previous)
    assert stopped.value is share.wall_overrun
    assert hooks_seen == [sample] and hooks_left is sample  # never unset by the interpreter


def test_a_frame_outside_any_hook_is_not_in_one() -> None:
    assert not in_hook(sys._getframe())
