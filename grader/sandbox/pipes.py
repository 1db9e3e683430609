"""How the parent wires a child's pipes, reads them, and kills the child: the part of the
sandbox's parent side that differs between POSIX (Linux, macOS) and Windows.

On POSIX the records come back on a pipe of their own, passed to the child (``pass_fds``), the
child's stdout and stderr share a second pipe, both are read with ``selectors``, and the child
leads its own session so that ``killpg`` ends it with everything it started.  Windows has none
of these: ``select`` takes only sockets, ``pass_fds`` does not exist, nor do sessions.  There
the records come back on the child's stdout (the child points its fd 1 at stderr before it
imports the submission, see ``grader.sandbox.child.main``), its output on stderr, each pipe is
read by a thread of its own into a bounded queue, and the kill ends the child alone (a process
it started may live on: ``limits only`` promises nothing about other processes).  Windows is
``sys.platform == "win32"``, as ``subprocess`` decides it.  Either way
the reader is given the same deadline, the same caps (the caller's ``take`` keeps or drops each
chunk) and the same periodic check, so the limits hold the same.

``$GRADE_PIPES=threads`` takes the Windows way on any system: CI runs on Linux, and grades real
exercises through it so that the code Windows runs is exercised.
"""

from __future__ import annotations

import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any, Final, Literal

from grader.sandbox.said import _


ENV: Final = "GRADE_PIPES"
THREADS: Final = "threads"
CHUNK = 1 << 16
POLL = 0.2  # seconds between two ``check`` calls (the caller measures the scratch folder)
_QUEUED = 16  # chunks a reader thread may hold before it waits: memory stays bounded
_JOIN_SECONDS = 2.0  # how long ``close`` waits for the reader threads after the kill

Ending = Literal["closed", "timed out", "stopped"]
Take = Callable[[str, bytes], bool]  # one chunk of the named pipe; False: stop reading
Check = Callable[[], bool]  # called every ``POLL`` seconds; False: stop reading

_stranded: list[IO[bytes]] = []  # see ``Pipes.close``


def windows() -> bool:
    """Whether this is Windows, decided as ``subprocess`` decides it."""
    return sys.platform == "win32"


def threaded() -> bool:
    """Whether this grader reads its children's pipes with threads (see the module doc)."""
    return windows() or os.environ.get(ENV, "").strip().lower() == THREADS


def describe() -> str:
    """How children's pipes are read here, for ``grade --version``."""
    return _("pipes: {how}", how=THREADS if threaded() else "selectors")


def session_options() -> dict[str, Any]:
    """``Popen`` keywords that give the child its own session where there are sessions."""
    return {} if windows() else {"start_new_session": True}


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """Kill the child and, on POSIX, its whole session (it leads one: ``session_options``);
    Windows kills the child alone.  Does not wait for it."""
    try:
        if not windows():
            os.killpg(proc.pid, signal.SIGKILL)
        elif proc.returncode is None:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def kill(proc: subprocess.Popen[Any]) -> None:
    """``kill_group``, then reap the child."""
    kill_group(proc)
    proc.wait()


class Pipes:
    """The pipes a child writes to, by name, read until they close, time runs out, or the
    caller says stop; ``close`` closes them (after the child was killed)."""

    def __init__(self, streams: dict[str, IO[bytes]], threads: bool) -> None:
        self._streams = streams
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._use_threads = threads

    def read(self, deadline: float, take: Take, check: Check) -> Ending:
        """Hand every chunk to ``take`` until each pipe is at its end ("closed"),
        ``time.monotonic()`` passes ``deadline`` ("timed out"), or ``take`` or ``check`` says
        False ("stopped")."""
        read = self._read_threads if self._use_threads else self._read_selectors
        return read(deadline, take, _Every(POLL, check))

    def _read_selectors(self, deadline: float, take: Take, check: _Every) -> Ending:
        with selectors.DefaultSelector() as selector:
            for name, stream in self._streams.items():
                selector.register(stream, selectors.EVENT_READ, name)
            while selector.get_map():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timed out"
                if not check():
                    return "stopped"
                for key, _events in selector.select(min(remaining, POLL)):
                    chunk = os.read(key.fd, CHUNK)
                    if not chunk:
                        selector.unregister(key.fileobj)
                    elif not take(key.data, chunk):
                        return "stopped"
        return "closed"

    def _read_threads(self, deadline: float, take: Take, check: _Every) -> Ending:
        chunks: queue.Queue[tuple[str, bytes]] = queue.Queue(maxsize=_QUEUED)
        for name, stream in self._streams.items():
            thread = threading.Thread(target=self._pump, args=(name, stream, chunks),
                                      name=f"grade-pipe-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)
        open_pipes = len(self._streams)
        while open_pipes:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timed out"
            if not check():
                return "stopped"
            try:
                name, chunk = chunks.get(timeout=min(remaining, POLL))
            except queue.Empty:
                continue
            if not chunk:
                open_pipes -= 1
            elif not take(name, chunk):
                return "stopped"
        return "closed"

    def _pump(self, name: str, stream: IO[bytes], chunks: queue.Queue[tuple[str, bytes]]) -> None:
        """A reader thread: move one pipe's chunks to the queue, the empty chunk last; give up
        once the reading stopped and the queue stays full."""
        while True:
            try:
                chunk = os.read(stream.fileno(), CHUNK)
            except OSError:
                chunk = b""
            while True:
                try:
                    chunks.put((name, chunk), timeout=POLL)
                    break
                except queue.Full:
                    if self._stop.is_set():
                        return
            if not chunk or self._stop.is_set():
                return

    def close(self) -> None:
        """Stop the reader threads and close the pipes.  Call it after the child was killed:
        then each pipe ends and its thread with it.  A pipe still held open by a process the
        kill could not reach (a grandchild on Windows) keeps its thread blocked in ``read``;
        that pipe is left open (``_stranded``) rather than closed under the thread's feet."""
        self._stop.set()
        limit = time.monotonic() + _JOIN_SECONDS
        for thread in self._threads:
            thread.join(max(0.0, limit - time.monotonic()))
        busy = {t.name.removeprefix("grade-pipe-") for t in self._threads if t.is_alive()}
        for name, stream in self._streams.items():
            if name in busy:
                _stranded.append(stream)
            else:
                stream.close()


class _Every:
    """``check`` called at most once every ``seconds`` (true in between)."""

    def __init__(self, seconds: float, check: Check) -> None:
        self._seconds, self._check, self._next = seconds, check, 0.0

    def __call__(self) -> bool:
        now = time.monotonic()
        if now < self._next:
            return True
        self._next = now + self._seconds
        return self._check()
