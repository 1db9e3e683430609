"""One sandboxed child for all of a submission's exercises: isolate once, fork one process per
exercise, and relay that process's answers.

Started by ``grader.sandbox.session`` as ``python -I -S -u -c <bootstrap>`` in a scratch folder
holding the copies of the submission's files; in a batch, forked as such from the batch's fork
server (``grader.sandbox.child.forkserver``), which loaded the same modules once.  Starting a
Python, importing ``micrograph`` and entering the namespaces cost more CPU than most exercises'
probes, so this process pays them once per submission (a batch's, the namespaces alone); each exercise then runs in a process of its own, forked from this one before any
submitted code ran, so a crash, a hang, a memory bomb or a changed global in one exercise costs
that exercise alone, as with one child per exercise.

The supervisor runs no submitted code and holds no test: each exercise's process reads its
request (with the test module's source) from stdin, which the grader fills only after the
previous exercise's process is gone, so no process sees another exercise's hidden tests.  Per
exercise the supervisor forks that process (the worker of ``grader.sandbox.child.relay``), says
``started`` on its control pipe, relays the worker's answers to the exercise's own pipe as the
relay of a lone child does (a nonce per step; the worker holds no pipe of the grader's), kills
the worker at the exercise's time limit, and says ``ended`` with the worker's wait status.  The
worker closes every descriptor but its own pipes, reads its request, loads its tests, applies
the isolation filter naming itself (signals only to itself: not to the supervisor), then
confines itself with its exercise's rlimits and answers (``grader.sandbox.child.main``).  The
supervisor keeps a seccomp filter of its own (no sockets, IPC, ptrace, mounts...) and is not
dumpable, nor are its workers, so that a worker, which shares its uid, can open neither its
memory or descriptors nor its own through /proc; what it reads from a worker is that worker's hello (its layers and steps,
written before the submission is imported) and its answers, never a test.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import time
from typing import Any

from grader.sandbox.child import main as child_main
from grader.sandbox.child import relay, seal, seccomp
from grader.sandbox.child.isolate import enter, filter_self
from grader.sandbox.child.plan import IsolationError, Plan

MAX_REQUEST = 16 << 20  # one exercise's request, test source included


class _Expired(Exception):
    """The exercise's time ran out while the supervisor waited for its worker."""


def _read_line(fd: int) -> bytes:
    """One line from ``fd``, read without going past it (what follows is the next exercise's)."""
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
    return _killed(pid), True


def _killed(pid: int) -> int:
    os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1]


def _ready(plan: Plan, sealed: seal.Sealing) -> tuple[list[str], relay.Steps]:
    """In the worker, before it confines itself: read the exercise's request, load its tests
    and apply the isolation filter naming this process (``child_main.prepare``); what this
    process sealed before it forked the worker, the worker keeps (``sealed``)."""
    started = time.monotonic()
    request = json.loads(_read_line(0))
    return child_main.prepare(request, started, plan, lambda: filter_self(plan), sealed)


def _exercise(channel: int, layers: list[str], pid: int, pipes: relay.WorkerPipes,
              seconds: float) -> tuple[int, bool]:
    """Relay the worker ``pid``'s answers to ``channel`` within ``seconds``, then reap it (the
    ``ended`` record says its exit status); its (wait status, timed out)."""
    deadline = time.monotonic() + seconds
    try:
        answered = relay.relay(channel, layers, pipes, deadline)
        if answered is False:
            return _killed(pid), False  # it broke the protocol: its tests are forfeit
        os.close(pipes.asks)  # the worker reads the end of its steps and leaves
        pipes.asks = -1
        status, timed_out = _wait(pid, deadline - time.monotonic())
        if answered and not timed_out:  # (silent before its hello: its status says how it ended)
            _say(channel, {"kind": "ended", "code": os.waitstatus_to_exitcode(status)})
        return status, timed_out
    except relay.Expired:
        return _killed(pid), True
    finally:
        for fd in pipes.relay_ends():
            if fd >= 0:
                os.close(fd)


def main() -> None:
    """The child started afresh: load what a test module may use (``preload``), then ``run``."""
    child_main.preload()
    run()


def run() -> None:
    """Read the header (isolation plan, control pipe, one slot per exercise), isolate, and run
    the exercises one after the other (see the module doc); what a test module may use is
    loaded already (``main``, or the fork server this process was forked from)."""
    header = json.loads(_read_line(0))
    plan = Plan.from_request(dict(header["isolation"], readable=child_main.readable_dirs()))
    control, slots = header["control"], header["runs"]
    try:
        layers = enter(plan)
    except IsolationError as exc:
        for slot in slots:
            _say(slot["channel"], {"kind": "refused", "reason": str(exc)})
        return
    seccomp.supervise()
    relay.not_dumpable()  # nor is each worker it forks
    sealed = seal.seal_loaded("", freezing=plan.freeze)  # once, not in each worker: no submitted code has run yet
    for number, slot in enumerate(slots):
        gc.freeze()  # loaded now, never collected: a worker does not copy its pages to scan it
        pid, pipes = relay.fork_worker(lambda: _ready(plan, sealed), slot["output"])
        os.close(slot["output"])
        _say(control, {"kind": "started", "run": number})
        status, timed_out = _exercise(slot["channel"], layers, pid, pipes, float(slot["time"]))
        os.close(slot["channel"])
        _say(control, {"kind": "ended", "run": number, "status": status, "timed_out": timed_out})
