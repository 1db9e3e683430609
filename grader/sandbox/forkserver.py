"""The grader's side of a batch's fork server (``grader.sandbox.child.forkserver``).

Each submission's child (``grader.sandbox.child.supervisor``) started with ``subprocess`` pays a
Python start and the import of everything trusted before it isolates itself: about a tenth of a
second of CPU a submission, more than a whole exercise of most.  A batch starts one fork server
per interpreter instead, which has loaded all that once, and each child is forked from it and
then isolates itself exactly as before; the server runs no submitted code and holds no test.

``SUPERVISOR`` is the supervisor's command line after the interpreter: the only program a
server starts (``ForkServer.start``); anything else is started with ``subprocess`` as before.
``Forked`` stands in for the ``subprocess.Popen`` of the child: its pid (it leads its own
session, so ``pipes.kill_group`` kills it with its processes), its stdin, ``poll`` and ``wait``
(the server says when it ended, and reaps it once that was read here, as ``Popen`` does).
"""

from __future__ import annotations

import io
import json
import os
import queue
import socket
import subprocess
import threading
from typing import Any

from grader.sandbox import isolation
from grader.sandbox.warm import environment

BOOT = (f"import sys; sys.path[:0] = {isolation.ROOTS!r}; "
        "from grader.sandbox.child.supervisor import main; main()")
SUPERVISOR = ("-I", "-S", "-u", "-c", BOOT)
"""The supervisor's command line after the interpreter's path."""

_SERVER = (f"import sys; sys.path[:0] = {isolation.ROOTS!r}; "
           "from grader.sandbox.child.forkserver import main; main({fd})")
_OPTIONS = {"stdin", "stdout", "stderr", "env", "pass_fds", "start_new_session"}
_START_SECONDS = 30.0  # the server's answer to one request: a fork, so at once unless it is gone
_END_SECONDS = 5.0  # for the server to end once its socket closed


class Forked:
    """A child the server forked, as the session uses a ``subprocess.Popen`` (module doc)."""

    def __init__(self, server: ForkServer, pid: int, args: list[str], stdin: int) -> None:
        self.server, self.pid, self.args = server, pid, args
        self.stdin: io.BufferedWriter | None = open(stdin, "wb")
        self.returncode: int | None = None
        self._status: int | None = None
        self._ended = threading.Event()
        self._lock = threading.Lock()

    def ended(self, status: int) -> None:
        """The server says the child ended with ``status`` (a wait status)."""
        self._status = status
        self._ended.set()

    def poll(self) -> int | None:
        if self.returncode is None and self._ended.is_set():
            self._settle()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        self._settle()
        assert self.returncode is not None
        return self.returncode

    def _settle(self) -> None:
        with self._lock:
            if self.returncode is None and self._status is not None:
                self.returncode = os.waitstatus_to_exitcode(self._status)
                self.server.reap(self.pid)


class ForkServer:
    """One fork server (``grader.sandbox.child.forkserver``), started with ``python``."""

    def __init__(self, python: str) -> None:
        self.python = python
        mine, its = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:  # it writes no file: no folder of its own, none left behind if the grader is killed
            self.proc = subprocess.Popen(
                [python, "-I", "-S", "-u", "-c", _SERVER.format(fd=its.fileno())], cwd=os.sep,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=environment(os.sep), pass_fds=(its.fileno(),), start_new_session=True)
        except OSError:
            mine.close()
            raise
        finally:
            its.close()
        self.sock = mine
        self.alive = True
        self._forking = threading.Lock()  # one request at a time: its answer is the next one
        self._answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self._table = threading.Lock()
        self._children: dict[int, Forked] = {}
        self._early: dict[int, int] = {}  # ended before their Forked was made
        self._listening = threading.Thread(target=self._listen, name="forkserver", daemon=True)
        self._listening.start()

    def serves(self, args: list[str], options: dict[str, Any]) -> bool:
        """Whether ``start`` gives what ``subprocess.Popen(args, **options)`` would."""
        return (self.alive and args[:1] == [self.python] and tuple(args[1:]) == SUPERVISOR
                and set(options) <= _OPTIONS and options.get("start_new_session") is True
                and options.get("stdin") == subprocess.PIPE
                and all(options.get(s, subprocess.DEVNULL) == subprocess.DEVNULL
                        for s in ("stdout", "stderr")))

    def start(self, args: list[str], folder: str, options: dict[str, Any]) -> Forked:
        """Fork the supervisor in ``folder`` with ``options``' environment and descriptors
        (``serves`` said it can); raises OSError when the server cannot."""
        passed = [int(fd) for fd in options.get("pass_fds", ())]
        env = {str(k): str(v) for k, v in (options.get("env") or {}).items()}
        read, write = os.pipe()
        try:
            with self._forking:
                if not self.alive:
                    raise OSError("the fork server ended")
                request = {"folder": folder, "env": env, "fds": [0, *passed]}
                socket.send_fds(self.sock, [json.dumps(request).encode()], [read, *passed])
                answer = self._answers.get(timeout=_START_SECONDS)
            if "started" not in answer:
                raise OSError(answer.get("failed", "the fork server ended"))
        except (OSError, queue.Empty) as exc:
            os.close(write)
            raise OSError(f"the fork server could not start a child: {exc}") from None
        finally:
            os.close(read)
        pid = int(answer["started"])
        child = Forked(self, pid, args, write)
        with self._table:
            if pid in self._early:
                child.ended(self._early.pop(pid))
            else:
                self._children[pid] = child
        return child

    def reap(self, pid: int) -> None:
        """Let the server reap ``pid`` (its end was read)."""
        try:
            self.sock.send(json.dumps({"reap": pid}).encode())
        except OSError:
            pass  # the server is gone, and its children with it

    def _listen(self) -> None:
        """Read the server's answers and each child's end until the server is gone."""
        while True:
            try:
                data = self.sock.recv(1 << 12)
            except OSError:
                data = b""
            if not data:
                break
            message = json.loads(data)
            if "ended" not in message:
                self._answers.put(message)
                continue
            with self._table:
                child = self._children.pop(message["ended"], None)
                if child is None:
                    self._early[message["ended"]] = message["status"]
            if child is not None:
                child.ended(message["status"])
        self.alive = False
        self._answers.put({"failed": "the fork server ended"})
        with self._table:
            lost, self._children = list(self._children.values()), {}
        for child in lost:  # the server killed them as it ended, or died and they with it
            child.ended(9)

    def close(self) -> None:
        """End the server (it kills the children still running), and wait for it."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=_END_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._listening.join(_END_SECONDS)  # every child it had is ended here: none is signalled after
        self.sock.close()
