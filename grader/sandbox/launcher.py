"""How the sandbox's children start when the grader serves a class: tracked, so that an
interrupted batch can kill them at once.

The privilege drop itself is the sandbox's (``grader.sandbox.isolation``): run as root (as
Gradescope does), every child gets a uid of its own from a reserved range, in its own
namespaces where the kernel allows; ``for_this_process`` checks, once, that this holds here.

``Launcher.spawn`` is a ``grader.sandbox.run.Spawn``: the course passes it to every sandboxed
run (``Course.spawn``), which starts its child through it, and it records each child.  A
launcher made ``forking`` (a batch's) forks each submission's supervisor from a fork server of
its interpreter (``grader.sandbox.forkserver``), started at the first one and ended by
``close``; where the server cannot start or serve a child, the child is started as before.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
import weakref
from pathlib import Path
from typing import Any

from grader.sandbox import isolation, pipes, uids
from grader.sandbox.forkserver import Forked, ForkServer


class LaunchError(Exception):
    """Children cannot be started with the isolation this machine must give; one line."""


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


class Launcher:
    """Starts the sandbox's children (``spawn``) and keeps track of them (see the module doc)."""

    def __init__(self, forking: bool = False) -> None:
        self._live: weakref.WeakSet[subprocess.Popen[bytes] | Forked] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closed = False
        self._forking = forking and hasattr(os, "fork") and not pipes.windows()
        self._servers: dict[str, ForkServer | None] = {}  # by interpreter; None: it failed

    def spawn(self, args: list[str], scratch: str, **options: Any) -> subprocess.Popen[bytes]:
        """A ``grader.sandbox.run.Spawn``: start ``args`` in ``scratch`` and record the child."""
        if self._closed:
            raise OSError("grading was interrupted")
        proc: subprocess.Popen[bytes] | Forked | None = self._forked(args, scratch, options)
        if proc is None:
            proc = subprocess.Popen(args, cwd=scratch, **options)
        with self._lock:
            self._live.add(proc)
        return proc  # type: ignore[return-value]  # a Forked does what the session asks of one

    def _forked(self, args: list[str], scratch: str, options: dict[str, Any]) -> Forked | None:
        """The child forked by this launcher's fork server of ``args[0]``, or None where that
        server does not start this program (or cannot start at all)."""
        if not self._forking or not args:
            return None
        with self._lock:
            if args[0] not in self._servers:
                try:
                    self._servers[args[0]] = ForkServer(args[0])
                except OSError:
                    self._servers[args[0]] = None
            server = self._servers[args[0]]
        if server is None or not server.serves(args, options):
            return None
        try:
            return server.start(args, scratch, options)
        except OSError:
            return None

    def close(self) -> None:
        """Start no more children (the batch is done, or interrupted and winding down), and end
        the fork servers (which kill the children they forked that still run)."""
        self._closed = True
        with self._lock:
            servers, self._servers = [s for s in self._servers.values() if s is not None], {}
        for server in servers:
            server.close()

    def kill_all(self) -> None:
        """Kill every child still running (each leads its own process group)."""
        with self._lock:
            procs = list(self._live)
        for proc in procs:
            if proc.poll() is None:  # (one reaped may have lent its pid to another process)
                pipes.kill_group(proc)


def for_this_process(forking: bool = False) -> Launcher:
    """A launcher (``forking``: see the module doc), once the isolation this process must give
    its children is known to work (raises LaunchError saying what to do otherwise)."""
    try:
        isolation.current()
    except uids.IsolationUnavailable as exc:
        raise LaunchError(str(exc)) from None
    return Launcher(forking)


def lock_down(path: Path) -> None:
    """Make ``path`` root-only: folders 0700, files 0600 (when running as root)."""
    if not running_as_root() or not path.exists():
        return
    for folder, dirs, files in os.walk(path):
        os.chmod(folder, stat.S_IRWXU)
        for name in files:
            target = os.path.join(folder, name)
            if not os.path.islink(target):
                os.chmod(target, stat.S_IRUSR | stat.S_IWUSR)
