"""The parent's pipe reading (``grader.sandbox.pipes``), both ways: ``selectors`` (POSIX) and
one thread per pipe (Windows, forced here on Linux), on real child processes; and the child's
alarm where there is no SIGALRM (``TimerAlarm``), in a process of its own (it installs a
SIGINT handler).  The graded end-to-end runs through the threads are in test_hostile.py and
tests/course/test_platforms.py."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import test_hostile as hostile
from toycourse import ToyCourse

from grader.sandbox import pipes

REPO = Path(__file__).resolve().parents[2]
WAYS = [pytest.param(False, id="selectors"), pytest.param(True, id="threads")]


def _child(code: str) -> subprocess.Popen[bytes]:
    """A child writing to stdout and stderr (two pipes), in a session of its own."""
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **pipes.session_options())


def _read(code: str, threads: bool, seconds: float = 60.0, stop_after: int | None = None
          ) -> tuple[str, dict[str, bytes], int]:
    """Read a child's two pipes: how the reading ended, what each pipe gave, checks made."""
    proc = _child(code)
    assert proc.stdout is not None and proc.stderr is not None
    got: dict[str, bytes] = {"out": b"", "err": b""}
    checks = [0]

    def take(name: str, chunk: bytes) -> bool:
        got[name] += chunk
        return stop_after is None or len(got[name]) < stop_after

    def check() -> bool:
        checks[0] += 1
        return True

    reader = pipes.Pipes({"out": proc.stdout, "err": proc.stderr}, threads)
    try:
        ending = reader.read(time.monotonic() + seconds, take, check)
    finally:
        pipes.kill(proc)
        reader.close()
    assert proc.stdout.closed and proc.stderr.closed
    return ending, got, checks[0]


@pytest.mark.parametrize("threads", WAYS)
def test_both_pipes_are_read_to_their_end(threads: bool) -> None:
    code = ("import os\nfor i in range(200):\n    os.write(1, b'o' * 1000)\n"
            "    os.write(2, b'e' * 999)\n")
    ending, got, checks = _read(code, threads)
    assert ending == "closed"
    assert got == {"out": b"o" * 200_000, "err": b"e" * 199_800}
    assert checks >= 1


@pytest.mark.parametrize("threads", WAYS)
def test_a_child_that_keeps_its_pipes_open_runs_out_of_time(threads: bool) -> None:
    ending, got, _ = _read("import sys, time\nprint('started', flush=True)\ntime.sleep(60)\n",
                           threads, seconds=1.0)
    assert ending == "timed out"
    assert got["out"] in (b"", b"started\n")


@pytest.mark.parametrize("threads", WAYS)
def test_the_reader_stops_when_told_and_a_flood_stays_outside(threads: bool) -> None:
    """``take`` says stop after 1 MB of a child that writes forever: the reading ends, the
    kill ends the child, and ``close`` returns (the reader threads do not wait on a full
    queue)."""
    ending, got, _ = _read("import os\nwhile True:\n    os.write(1, b'x' * 65536)\n", threads,
                           stop_after=1 << 20)
    assert ending == "stopped"
    assert (1 << 20) <= len(got["out"]) < (1 << 20) + pipes.CHUNK


def test_a_pipe_held_open_past_the_kill_is_left_open_not_closed_under_its_reader() -> None:
    """Windows kills the child alone: a grandchild may keep a pipe open.  Here a child that
    is not killed at all stands for it: ``close`` gives up on its reader and leaves that
    pipe open, closing the other."""
    proc = _child("import os, time\nos.close(2)\ntime.sleep(30)\n")
    assert proc.stdout is not None and proc.stderr is not None
    reader = pipes.Pipes({"out": proc.stdout, "err": proc.stderr}, True)
    try:
        ending = reader.read(time.monotonic() + 0.5, lambda name, chunk: True, lambda: True)
        reader.close()
        assert ending == "timed out"
        assert proc.stderr.closed and not proc.stdout.closed
    finally:
        pipes.kill(proc)
        proc.stdout.close()


def test_windows_and_the_environment_variable_choose_the_threads() -> None:
    code = ("import os, sys\nfrom grader.sandbox import pipes\n"
            "print(pipes.threaded(), pipes.describe())\n"
            "os.environ[pipes.ENV] = 'threads'\nprint(pipes.threaded())\n"
            "del os.environ[pipes.ENV]\nsys.platform = 'win32'\nprint(pipes.threaded())\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split("\n")
    assert out[:3] == ["False pipes: selectors", "True", "True"]


TIMER = '''
import sys, time
sys.path.insert(0, {repo!r})
from grader.sandbox.child.alarm import Overrun, TimerAlarm
alarm = TimerAlarm()

def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass

try:
    with alarm.armed(0.3, Overrun("ProbeTimeout", "first")):
        spin(30)
    print("not rung")
except Overrun as exc:
    print("rung", exc)
with alarm.armed(5, Overrun("ProbeTimeout", "second")):
    spin(0.1)
print("in time")
with alarm.armed(5, Overrun("ProbeTimeout", "third")):
    alarm._expire(1)  # the first block's timer ringing late, in the third block: ignored
    spin(0.2)
print("late ring ignored")
'''


def test_the_timer_alarm_interrupts_a_loop_and_ignores_a_late_ring() -> None:
    done = subprocess.run([sys.executable, "-I", "-c", TIMER.format(repo=str(REPO))],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[:3] == ["rung first", "in time", "late ring ignored"], done.stderr


# Attacks on the limits the reading enforces, graded through the threads (as on Windows):
# each earns what it earns through selectors (test_hostile.py's expectations, unchanged).
THROUGH_THREADS = ["infinite loop on negatives", "infinite loop at import", "floods stdout forever",
                   "floods the results channel", "forges records on every descriptor",
                   "os._exit on negatives", "memory bomb", "syntax error"]


@pytest.mark.parametrize("name", THROUGH_THREADS)
def test_attacks_graded_through_the_threads(toy: ToyCourse, stopping_toy: ToyCourse, name: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pipes.ENV, pipes.THREADS)
    hostile.test_attack_earns_only_what_it_deserves(toy, stopping_toy, name)


def test_output_cut_through_the_threads(toy: ToyCourse, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pipes.ENV, pipes.THREADS)
    hostile.test_stdout_flood_that_ends_is_cut_and_still_graded(toy)
