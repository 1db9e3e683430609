"""The fork server of a batch: one Python that loads, once, what every submission's child loads
before it reads its header, and forks each submission's child from there.

Started by ``grader.sandbox.forkserver`` (the grader's side) as ``python -I -S -u`` with one end
of a Unix socket.  It loads the supervisor and what a test module may use (``preload``), then
waits on the socket.  Each request names a scratch folder and an environment and carries the
child's descriptors (its stdin, its control pipe, each exercise's pipes); the server forks, and
the child becomes what ``subprocess.Popen`` would have started: a session of its own, the
folder as its working directory, that environment alone, those descriptors at the numbers the
grader gave them and no other, then ``grader.sandbox.child.supervisor.run``, which isolates it
(namespaces, its own uid, seccomp, Landlock, rlimits) as in a child started afresh.

The server runs no submitted code and reads no test, no request of an exercise and no answer:
nothing a submission's child does reaches it or a later child.  What the children share is what
the server loaded before any of them existed (the hash seed and the address of each loaded
module among them); ``random`` draws a new seed in each fork.  It tells the grader when a child
ended (its wait status), and reaps it only when the grader has read that (``reap``), so that the
child's pid and group are not reused while the grader may still kill them.  When the grader
closes the socket, the server kills the children still running and ends.
"""

from __future__ import annotations

import ctypes
import fcntl
import gc
import json
import os
import select
import signal
import socket
import traceback
from typing import Any

from grader.sandbox.child import main as child_main
from grader.sandbox.child import supervisor
from grader.sandbox.child.relay import exit_flushed, not_dumpable

MAX_MESSAGE = 1 << 16  # one request: a folder, an environment, descriptor numbers
MAX_FDS = 256  # descriptors one request may carry (two per exercise, stdin, the control pipe)
_PR_SET_DUMPABLE = 4


def _status(info: os.waitid_result) -> int:
    """The wait status ``os.waitpid`` would give for what ``os.waitid`` found."""
    if info.si_code == os.CLD_EXITED:
        return (info.si_status & 0xFF) << 8
    return info.si_status | (0x80 if info.si_code == os.CLD_DUMPED else 0)


def _place(fds: list[int], targets: list[int]) -> None:
    """Put each received descriptor at its number in ``targets`` (inheritable, as ``pass_fds``
    leaves them), ``/dev/null`` at 1 and 2, and close every other descriptor."""
    top = max([*targets, 2]) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, top) for fd in fds]  # out of every target's way
    for fd in fds:
        os.close(fd)
    for fd, target in zip(moved, targets):
        os.dup2(fd, target)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    keep = sorted({0, 1, 2, *targets})
    for low, high in zip(keep, keep[1:] + [max(os.sysconf("SC_OPEN_MAX"), 1 << 16)]):
        os.closerange(low + 1, high)


def _become(request: dict[str, Any], fds: list[int]) -> None:
    """In the forked child: what ``subprocess.Popen`` gives the supervisor (module doc),
    dumpable again as a process started afresh is (the server is not; the supervisor makes
    itself not dumpable in its turn)."""
    ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    os.chdir(request["folder"])
    os.environ.clear()
    os.environ.update(request["env"])
    _place(fds, request["fds"])


def _fork(request: dict[str, Any], fds: list[int]) -> int:
    """Fork one submission's child; its pid (in the child, never returns)."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        _become(request, fds)
        supervisor.run()
        code = 0
    except SystemExit as exc:
        code = exc.code if type(exc.code) is int else 1
    except BaseException:  # noqa: BLE001 - said on its stderr, as a child started afresh would
        traceback.print_exc()
    finally:
        exit_flushed(code)
    raise AssertionError("unreachable")


def _drain(fd: int) -> None:
    """Empty the signal wake-up pipe (the bytes only say that a child changed state)."""
    try:
        while os.read(fd, 1 << 10):
            pass
    except BlockingIOError:
        pass


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.send(json.dumps(message).encode())


class _Children:
    """The children forked and not reaped: running ones, and those whose end was told."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.running: set[int] = set()
        self.told: set[int] = set()

    def look(self) -> None:
        """Tell the grader of each child that ended, leaving it unreaped (``WNOWAIT``)."""
        for pid in sorted(self.running):
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None and info.si_pid == pid:
                self.running.discard(pid)
                self.told.add(pid)
                _send(self.sock, {"ended": pid, "status": _status(info)})

    def reap(self, pid: int) -> None:
        if pid in self.told:
            self.told.discard(pid)
            os.waitpid(pid, 0)

    def end(self) -> None:
        """Kill every child still running (each leads its own session), and reap them all."""
        for pid in self.running:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in self.running | self.told:
            os.waitpid(pid, 0)


def main(fd: int) -> None:
    """Load, then fork a child for each request on the socket ``fd`` until it closes."""
    child_main.preload()
    gc.freeze()  # loaded once, never collected: no child copies these pages to scan them
    not_dumpable()  # no process of the grader's uid opens its socket through /proc
    sock = socket.socket(fileno=fd)
    wake, woken = os.pipe()
    os.set_blocking(wake, False)
    os.set_blocking(woken, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(woken)
    children = _Children(sock)
    try:
        while True:
            ready = select.select([sock, wake], [], [])[0]
            if wake in ready:
                _drain(wake)
            children.look()
            if sock not in ready:
                continue
            data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
            if not data:
                break
            request = json.loads(data)
            if "reap" in request:
                children.reap(request["reap"])
                continue
            try:
                pid = _fork(request, fds)
            except OSError as exc:
                _send(sock, {"failed": str(exc)})
                continue
            finally:
                for received in fds:
                    os.close(received)
            children.running.add(pid)
            _send(sock, {"started": pid})
            children.look()  # a child that ended before its pid was known: its end comes after
    finally:
        children.end()
