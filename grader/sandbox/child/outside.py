"""What the submission's code does to the machine outside its sandbox, as the worker's sentinel
sees it (``grader.sandbox.child.sentinel``): flagged for the instructor as it is tried.

The kernel refuses these calls already (the seccomp filter, Landlock, the namespaces, a uid of
the worker's own), but a refusal the kernel makes is seen by the worker alone: what it says of
one is the submission's to forge or keep quiet.  The audit events the interpreter raises before
such a call are seen by the sentinel, whose flags the relay reads and the submission cannot take
back.  No exercise needs any of them:

* a lock or a watch on a file (``flock``, ``lockf``, ``fcntl``'s record locks, leases and
  directory notices): how two sandboxes that share a file signal each other;
* a change of a file's owner or extended attributes, anywhere; of its mode or times, or making,
  moving, removing or writing a file, outside the worker's scratch folder;
* another process: a signal to any but the worker, ``/proc`` of another process, a host name.

Reading a file is not flagged (the standard library reads its own); a path is judged as written,
relative to the scratch folder (so the working folder may not leave it: ``os.chdir("/dev/shm")``
first made ``open("x", "w")`` look like a write inside it), and a symbolic link by where it leads, relative to its own
folder (one made inside the scratch folder that leads out is flagged as it is made: the kernel
would refuse what it leads to, unflagged).  Calls that raise no audit event of their own
(``mkfifo``, ``mknod``, ``chroot``, ``setpriority``, the scheduling calls) raise one from
wrappers put in their place before anything is loaded (``grader.sandbox.child.unaudited``).
"""

from __future__ import annotations

import os
from typing import Any

from grader.sandbox.child import unaudited

_LOCKS = frozenset({5, 6, 7, 36, 37, 38, 1024, 1026})
# fcntl commands: F_GETLK, F_SETLK, F_SETLKW, the open file description's three, F_SETLEASE, F_NOTIFY
_ANYWHERE = frozenset({"fcntl.flock", "fcntl.lockf", "os.lockf", "os.chown", "os.setxattr",
                       "os.removexattr", "os.killpg", "socket.sethostname", *unaudited.EVENTS})
_PATHS = {"os.chmod": (0,), "os.utime": (0,), "os.mkdir": (0,), "os.remove": (0,), "os.rmdir": (0,),
          "os.truncate": (0,), "os.rename": (0, 1), "os.link": (0, 1), "os.symlink": (1,)}
_LINK = "os.symlink"  # its target (``args[0]``) is relative to the link's folder
_CHDIR = "os.chdir"  # a path judged as written is judged from the scratch folder: stay in it
EVENTS = frozenset({*_ANYWHERE, *_PATHS, _CHDIR, "fcntl.fcntl", "os.kill", "open", "os.listdir", "os.scandir"})
"""Every audit event ``Outside.reached`` judges."""

_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_ALLOWED = ("/dev/null",)  # written to by anyone, shared by nothing
_PROC = "/proc/"


def _text(path: Any) -> str | None:
    """A path argument as text (None for a descriptor, or what is no path)."""
    if type(path) is int:
        return None
    try:
        return os.fsdecode(path)
    except TypeError:
        return None


class Outside:
    """The worker's scratch folder and process id, and which events reach past them."""

    def __init__(self, scratch: str, pid: int) -> None:
        self.scratch = os.path.join(os.path.normpath(scratch), "")
        self.own = (f"{_PROC}self", f"{_PROC}thread-self", f"{_PROC}{pid}")
        self.pid = pid

    def out(self, path: Any) -> bool:
        """Whether ``path`` (as written, relative to the scratch folder) leads out of it."""
        text = _text(path)
        if text is None:
            return False
        full = os.path.normpath(os.path.join(self.scratch, text))
        return not os.path.join(full, "").startswith(self.scratch) and full not in _ALLOWED

    def leads_out(self, target: Any, link: Any) -> bool:
        """Whether a symbolic link at ``link`` to ``target`` leads out of the scratch folder."""
        text, at = _text(target), _text(link)
        if text is None or at is None:
            return False
        folder = os.path.dirname(os.path.join(self.scratch, at))
        return self.out(os.path.join(folder, text))

    def other_process(self, path: Any) -> bool:
        """Whether ``path`` is in ``/proc`` of another process than the worker."""
        text = _text(path)
        if text is None:
            return False
        full = os.path.normpath(os.path.join(self.scratch, text))
        if not full.startswith(_PROC):
            return False
        first = full[len(_PROC):].split("/", 1)[0]
        return first.isdigit() and f"{_PROC}{first}" not in self.own

    def reached(self, event: str, args: tuple[Any, ...]) -> bool:
        """Whether the audit event ``event`` with ``args`` reaches the machine outside."""
        if event in _ANYWHERE:
            return True
        places = _PATHS.get(event)
        if event == _LINK and len(args) > 1 and self.leads_out(args[0], args[1]):
            return True
        if places is not None:
            return any(self.out(args[i]) for i in places if i < len(args))
        if event == "fcntl.fcntl":
            return args[1] in _LOCKS
        if event == _CHDIR:  # ``os.fchdir`` gives a descriptor, whose folder is not known here
            return type(args[0]) is int or self.out(args[0])
        if event == "os.kill":
            return args[0] != self.pid
        if event in ("os.listdir", "os.scandir"):
            return self.other_process(args[0])
        return self.other_process(args[0]) or (event == "open" and self._writes(args) and self.out(args[0]))

    @staticmethod
    def _writes(args: tuple[Any, ...]) -> bool:
        """Whether an ``open`` event's mode (``open``) or flags (``os.open``) write."""
        mode, flags = args[1], args[2]
        if type(mode) is str:
            return any(c in mode for c in "wax+")
        return type(flags) is int and bool(flags & _WRITING)
