"""One sandboxed child for all of a submission's exercises: isolate once, fork one process per
exercise.

Started by ``grader.sandbox.session`` as ``python -I -S -u -c <bootstrap>`` in a scratch folder
holding the copies of the submission's files.  Starting a Python, importing ``micrograph`` and
entering the namespaces cost more CPU than most exercises' probes, so this process pays them once
per submission; each exercise then runs in a process of its own, forked from this one before any
submitted code ran, so a crash, a hang, a memory bomb or a changed global in one exercise costs
that exercise alone, as with one child per exercise.

The supervisor runs no submitted code and holds no test: a child gets its exercise's request
(with the test module's source) on stdin only after the previous child is gone, so it never sees
another exercise's hidden tests.  Per exercise the supervisor forks, says ``started`` on its
control pipe, waits (killing the child at the exercise's time limit) and says ``ended`` with the
wait status.  The child closes every descriptor but its own pipes, reads its request, applies the
isolation filter naming itself (signals only to itself: not to the supervisor), then runs the
exercise exactly as a lone child does (``grader.sandbox.child.main.run``: confinement, rlimits of
its exercise, import, probes).  The supervisor keeps a seccomp filter of its own (no sockets, IPC,
ptrace, mounts...) and makes itself non-dumpable, so that its children, which share its uid,
cannot open its memory or descriptors through /proc.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import signal
import time
import traceback
from typing import Any

from grader.sandbox.child import main as child_main
from grader.sandbox.child import relay, seccomp
from grader.sandbox.child.isolate import enter, filter_self
from grader.sandbox.child.plan import IsolationError, Plan

MAX_REQUEST = 16 << 20  # one exercise's request, test source included
_PR_SET_PDEATHSIG, _PR_GET_DUMPABLE, _PR_SET_DUMPABLE = 1, 3, 4


class _Expired(Exception):
    """The exercise's time ran out while the supervisor waited for its child."""


def _read_line(fd: int) -> bytes:
    """One line from ``fd``, read without going past it (what follows is the next child's)."""
    data = bytearray()
    while not data.endswith(b"\n") and len(data) <= MAX_REQUEST:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        data += chunk
    return bytes(data)


def _say(fd: int, message: dict[str, Any]) -> None:
    view = memoryview(json.dumps(message).encode() + b"\n")
    while view:
        view = view[os.write(fd, view):]


def _wait(pid: int, seconds: float) -> tuple[int, bool]:
    """Wait for the child ``pid``, killing it after ``seconds``: (wait status, timed out)."""

    def ring(*_: object) -> None:
        raise _Expired

    status = None
    signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
        try:
            status = os.waitpid(pid, 0)[1]
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Expired:
        pass
    if status is not None:
        return status, False
    os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1], True


def _exercise(slot: dict[str, int], layers: list[str], plan: Plan, dumpable: int) -> None:
    """In the forked child: keep only this exercise's pipes, read its request, run it, exit."""
    code = 0
    try:
        started = time.monotonic()
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        libc.prctl(_PR_SET_DUMPABLE, dumpable, 0, 0, 0)
        channel, output = slot["channel"], slot["output"]
        os.dup2(output, 1)
        os.dup2(output, 2)
        keep = sorted({0, 1, 2, channel})  # the control pipe and the other slots close
        for low, high in zip(keep, keep[1:] + [max(os.sysconf("SC_OPEN_MAX"), 1 << 16)]):
            os.closerange(low + 1, high)
        request = json.loads(_read_line(0))
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        request["fd"] = channel
        child_main.run(request, started, plan, lambda: layers + filter_self(plan))
    except BaseException:  # noqa: BLE001 - the supervisor's own bug: said on the output pipe
        traceback.print_exc()
        code = 1
    finally:
        relay.exit_flushed(code)


def main() -> None:
    """Read the header (isolation plan, control pipe, one slot per exercise), isolate, and run
    the exercises one after the other (see the module doc)."""
    header = json.loads(_read_line(0))
    plan = Plan.from_request(dict(header["isolation"], readable=child_main.readable_dirs()))
    control, slots = header["control"], header["runs"]
    child_main.preload()
    try:
        layers = enter(plan)
    except IsolationError as exc:
        for slot in slots:
            _say(slot["channel"], {"kind": "refused", "reason": str(exc)})
        return
    seccomp.supervise()
    libc = ctypes.CDLL(None, use_errno=True)
    dumpable = libc.prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0)  # what each child gets back
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    gc.freeze()  # what is loaded now is never collected: children do not copy its pages to scan it
    for number, slot in enumerate(slots):
        pid = os.fork()
        if pid == 0:
            _exercise(slot, layers, plan, max(dumpable, 0))
        os.close(slot["channel"])
        os.close(slot["output"])
        _say(control, {"kind": "started", "run": number})
        status, timed_out = _wait(pid, float(slot["time"]))
        _say(control, {"kind": "ended", "run": number, "status": status, "timed_out": timed_out})
