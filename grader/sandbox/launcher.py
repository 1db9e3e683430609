"""How the sandbox's children start when the grader serves a class: as an unprivileged user when
the grader is root, and tracked so that an interrupted batch can kill them at once.

Gradescope runs the autograder as root, and so may an instructor's machine.  The sandbox's
Landlock layer already hides the file system from the child where the kernel has Landlock; the
unprivileged user is the layer that holds everywhere else: the hidden tests, the solutions, the
cache of expected answers and the results are root-only files (0700/0600) that a child running
as ``micrograph-student`` (created by the bundle's ``setup.sh``) or ``nobody`` cannot open, and
it cannot write anywhere root owns.

``grader.sandbox.run`` starts every child with ``subprocess.Popen(...)``.  Rather than change the
sandbox, ``launching(launcher)`` makes ``grader.sandbox.run`` see a stand-in for the ``subprocess``
module whose ``Popen`` adds ``user=``/``group=``/``extra_groups=[]``/``umask=`` and hands the
child's scratch directory over to that user; everything else passes through.  The minimal
hook the sandbox could offer instead is a ``popen_kwargs`` argument plus a ``before_start(cwd)``
callback; see the course autograder's section of the README.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import grader
import micrograph
from grader.sandbox import run as sandbox

DEFAULT_USERS = ("micrograph-student", "nobody")
ENV_USER = "GRADE_CHILD_USER"  # a user name, or "none" to keep children as the grader's user
_ROOTS = sorted({str(Path(p.__file__).resolve().parents[1]) for p in (grader, micrograph)})


class LaunchError(Exception):
    """The children cannot run as the unprivileged user; the message is one line."""


@dataclass(frozen=True)
class ChildUser:
    name: str
    uid: int
    gid: int


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def find_user(names: tuple[str, ...] = DEFAULT_USERS) -> ChildUser | None:
    """The first of ``names`` that exists on this machine (``$GRADE_CHILD_USER`` first)."""
    wanted = os.environ.get(ENV_USER)
    if wanted == "none":
        return None
    for name in ((wanted,) if wanted else ()) + names:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid != 0:
            return ChildUser(name, entry.pw_uid, entry.pw_gid)
    return None


def _allows(st: os.stat_result, user: ChildUser, bits: int) -> bool:
    """Whether mode bits (4 read, 2 write, 1 search) allow ``user`` (no ACLs, no extra groups)."""
    if st.st_uid == user.uid:
        return (st.st_mode >> 6) & bits == bits
    if st.st_gid == user.gid:
        return (st.st_mode >> 3) & bits == bits
    return st.st_mode & bits == bits


def reachable(user: ChildUser, path: str | Path, bits: int = 4) -> bool:
    """Whether ``user`` can search every folder down to ``path`` and has ``bits`` on it."""
    given, target = Path(os.path.abspath(path)), Path(path).resolve()
    try:
        folders = {*given.parents, *target.parents}
        if not all(_allows(os.stat(folder), user, 1) for folder in folders):
            return False
        return _allows(os.stat(target), user, bits)
    except OSError:
        return False


def interpreter_for(user: ChildUser) -> str | None:
    """This Python, or the same version elsewhere when ``user`` cannot run this one (a venv or
    pyenv under a private home): the child needs only the standard library and the two
    packages it is given on ``sys.path``."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, os.path.realpath(sys.executable),
                      f"/usr/bin/{version}", f"/usr/local/bin/{version}", shutil.which(version)):
        if candidate and os.path.isfile(candidate) and reachable(user, candidate, 5):
            return candidate
    return None


def _hand_over(folder: str, user: ChildUser) -> None:
    """Give the child's scratch directory (and the copy of the submission in it) to ``user``."""
    os.chown(folder, user.uid, user.gid)
    for entry in os.scandir(folder):
        os.chown(entry.path, user.uid, user.gid, follow_symlinks=False)


class Launcher:
    """Stands in for the ``subprocess`` module inside ``grader.sandbox.run`` (see the module doc)."""

    def __init__(self, user: ChildUser | None = None, python: str | None = None) -> None:
        self.user = user
        self.python = python or sys.executable
        self._live: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closed = False

    def __getattr__(self, name: str) -> Any:
        return getattr(subprocess, name)

    def Popen(self, args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:  # noqa: N802
        if self._closed:
            raise OSError("grading was interrupted")
        if self.user is not None:
            if args and args[0] == sys.executable:
                args = [self.python, *args[1:]]
            if kwargs.get("cwd"):
                _hand_over(str(kwargs["cwd"]), self.user)
            kwargs.update(user=self.user.uid, group=self.user.gid, extra_groups=[], umask=0o077)
        proc: subprocess.Popen[bytes] = subprocess.Popen(args, **kwargs)
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
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)

    def check(self) -> None:
        """Start one child the way the sandbox does and import what it imports; raises
        LaunchError saying why when that fails as the unprivileged user."""
        if self.user is None:
            return
        for path in [*_ROOTS, tempfile.gettempdir()]:
            if not reachable(self.user, path, 5):
                raise LaunchError(f"the sandbox user {self.user.name} cannot read {path}: "
                                  "make it readable (chmod o+rx on it and its parents)")
        boot = f"import sys; sys.path[:0] = {_ROOTS!r}; import grader.sandbox.child.main, micrograph"
        scratch = tempfile.mkdtemp(prefix="grade-check-")
        try:
            proc = self.Popen([sys.executable, "-I", "-c", boot], cwd=scratch,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, start_new_session=True)
            out, _ = proc.communicate(timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            raise LaunchError(f"cannot start a child as {self.user.name}: {exc}") from None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if proc.returncode != 0:
            last = (out.decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
            raise LaunchError(f"a child running as {self.user.name} with {self.python} "
                              f"fails: {last}")


def for_this_process() -> Launcher:
    """A launcher that drops to the unprivileged user when this process is root and such a
    user exists (raises LaunchError when it exists but cannot run children); else a launcher
    that only tracks children."""
    if not running_as_root():
        return Launcher()
    user = find_user()
    if user is None:
        return Launcher()
    python = interpreter_for(user)
    if python is None:
        raise LaunchError(f"the sandbox user {user.name} cannot run {sys.executable} and no "
                          f"system python{sys.version_info.major}.{sys.version_info.minor} "
                          "was found")
    launcher = Launcher(user, python)
    launcher.check()
    return launcher


@contextlib.contextmanager
def launching(launcher: Launcher) -> Iterator[Launcher]:
    """Make the sandbox start its children through ``launcher`` inside the block."""
    previous = sandbox.subprocess
    sandbox.subprocess = launcher  # type: ignore[assignment]
    try:
        yield launcher
    finally:
        sandbox.subprocess = previous


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
