"""A fresh copy's top level runs under a share of the time of its own (``grader.spec.copy_share``,
``alarm.own_share``), as the first import did: a module-level demo run again for a state probe is
not paid for by the test that made the copy, whose own share waits meanwhile.  Which share stopped
a top level that never ends is told by the overrun raised (each share has its own), never by a
clock."""

from __future__ import annotations

import importlib.util
import signal
import sys
import types
from pathlib import Path

import pytest

from grader.sandbox.child import wire
from grader.sandbox.child.alarm import Overrun, Share, alarm, own_share
from grader.sandbox.child.copies import copy_share
from grader.spec.copy_share import copies_under
from grader.spec.limits import Limits
from grader.spec.repeat import fresh_copy

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interval timers (not Windows)")


def _share(name: str, cpu: float, wall: float) -> Share:
    return Share(cpu, wall, Overrun(wire.PROBE_TIMEOUT, f"{name}: cpu"), Overrun(wire.PROBE_TIMEOUT, f"{name}: wall"))


def _demo_again_never_ends(folder: Path) -> types.ModuleType:
    """A module whose top level returns the first time it runs and loops for ever when run again
    (its mark left beside it), as a demo that trains does, only longer."""
    mark = folder / "ran_once"
    path = folder / "demo_again.py"
    path.write_text(f"import os\nif os.path.exists({str(mark)!r}):\n    while True:\n        pass\n"
                    f"open({str(mark)!r}, 'w').close()\n\ndef scaled(x):\n    return 2 * x\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("demo_again", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["demo_again"] = module
    spec.loader.exec_module(module)
    return module


def test_a_fresh_copys_top_level_is_stopped_by_its_own_share_not_the_tests(tmp_path: Path) -> None:
    demo = _demo_again_never_ends(tmp_path)
    test, copy = _share("test", 600, 600), _share("copy", 0.05, 600)
    try:
        with alarm(test):
            with pytest.raises(Overrun) as stopped, copies_under(lambda: own_share(copy)):
                fresh_copy(demo)
            assert stopped.value is copy.cpu_overrun
            assert signal.getitimer(signal.ITIMER_PROF)[0] > 0  # the test's share runs on
    finally:
        sys.modules.pop("demo_again", None)


def test_the_share_a_block_waited_on_runs_on_after_it() -> None:
    test = _share("test", 600, 600)
    with alarm(test):
        handlers = signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)
        with own_share(_share("copy", 500, 500)):
            pass
        assert (signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM)) == handlers
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 0 and signal.getitimer(signal.ITIMER_REAL)[0] > 0


def test_outside_the_sandbox_a_copy_runs_untimed(tmp_path: Path) -> None:
    """The grader's own process (and these tests) set no share for copies: a copy's top level
    runs under whatever alarm is running, here none."""
    path = tmp_path / "plain_scaled.py"
    path.write_text("def scaled(x):\n    return 2 * x\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("plain_scaled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["plain_scaled"] = module
    try:
        spec.loader.exec_module(module)
        fresh = fresh_copy(module)
        assert fresh is not None and fresh.scaled(3) == 6
        assert signal.getitimer(signal.ITIMER_PROF)[0] == 0
    finally:
        sys.modules.pop("plain_scaled", None)


def test_a_copys_share_is_the_imports_told_as_the_tests_time() -> None:
    """ex15's 20 s: the import's half of the CPU time, and four times that on the clock, each
    told as a test's time running out (the test explains a top level's call that ran out)."""
    share = copy_share(Limits(time=20))
    assert (share.cpu, share.wall) == (Limits(time=20).import_seconds, 40.0) == (10.0, 40.0)
    assert share.cpu_overrun.kind == share.wall_overrun.kind == wire.PROBE_TIMEOUT
    assert (str(share.cpu_overrun), str(share.wall_overrun)) == ("used more than 10 s of CPU time",
                                                                "timed out after 40 s")
