"""How the sandbox's children start when the grader serves a class: tracked, so that an
interrupted batch can kill them at once.

The privilege drop itself is the sandbox's (``grader.sandbox.isolation``): run as root (as
Gradescope does), every child gets a uid of its own from a reserved range, in its own
namespaces where the kernel allows; ``for_this_process`` checks, once, that this holds here.

``Launcher.spawn`` is a ``grader.sandbox.run.Spawn``: the course passes it to every sandboxed
run (``Course.spawn``), which starts its child through it, and it records each child.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
import weakref
from pathlib import Path
from typing import Any

from grader.sandbox import isolation, pipes


class LaunchError(Exception):
    """Children cannot be started with the isolation this machine must give; one line."""


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


class Launcher:
    """Starts the sandbox's children (``spawn``) and keeps track of them (see the module doc)."""

    def __init__(self) -> None:
        self._live: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closed = False

    def spawn(self, args: list[str], scratch: str, **options: Any) -> subprocess.Popen[bytes]:
        """A ``grader.sandbox.run.Spawn``: start ``args`` in ``scratch`` and record the child."""
        if self._closed:
            raise OSError("grading was interrupted")
        proc: subprocess.Popen[bytes] = subprocess.Popen(args, cwd=scratch, **options)
        with self._lock:
            self._live.add(proc)
        return proc

    def close(self) -> None:
        """Start no more children (an interrupted batch is winding down)."""
        self._closed = True

    def kill_all(self) -> None:
        """Kill every child still running (each leads its own process group)."""
        with self._lock:
            procs = list(self._live)
        for proc in procs:
            if proc.returncode is None:
                pipes.kill_group(proc)


def for_this_process() -> Launcher:
    """A launcher, once the isolation this process must give its children is known to work
    (raises LaunchError saying what to do otherwise)."""
    try:
        isolation.current()
    except isolation.IsolationUnavailable as exc:
        raise LaunchError(str(exc)) from None
    return Launcher()


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
