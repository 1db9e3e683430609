"""A submission's child started while the isolation probe still runs (``grade ex03``).

The child (``python -I -S -u``, ``grader.sandbox.child.main``) first imports everything trusted,
then waits for its request on stdin, and only the request carries the isolation plan built
from the probe's answer: the child confines itself as that plan says before it imports the
submission, whenever it was started.  What is fixed when it starts is its interpreter, the
folder it starts in (its scratch folder), its environment and its pipes; of these only the
interpreter and where the scratch folder goes may depend on the mode (a root grader's children
that drop to a uid of their own may need the system's Python and a folder others can cross:
``isolation.interpreter``, ``isolation.scratch_parent``).

So ``start`` starts a child with the interpreter and scratch parent of the strongest mode,
``namespaces`` (this Python, the temp folder): for a grader that is not root every mode gives
the same, and a root grader gets that mode wherever the kernel allows namespaces.  ``take``
hands the child over only when the mode answered gives those same ones; otherwise it is killed
unused (so is a child no run takes, at exit at the latest), and the run starts its child as
before: a wrong guess costs a Python start on the other core, never a weaker sandbox.  It is
wrong on every run of a root grader without namespaces whose Python sits under a private home
(pyenv in ``/root``): its children need the system's Python (docs/grader.md, "Each mode").
The uid a root grader's child drops to and the scratch folder's owner are settled after the
answer, before the request is sent, as they were.  The child's time limit starts with its
request, so waiting for the probe costs it none.

POSIX only (records on a pipe of their own, passed at the start); where the pipes are read with
threads (``grader.sandbox.pipes``) no child is started early.
"""

from __future__ import annotations

import atexit
import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from typing import IO, NamedTuple

from grader.sandbox import isolation, pipes, scratch

BOOT = (f"import sys; sys.path[:0] = {isolation.ROOTS!r}; "
        "from grader.sandbox.child.main import main; main()")
"""The one-exercise child's program (``grader.sandbox.child.main``)."""
_ONE_EXERCISE = re.compile(r"(?:ex)?0*\d{1,2}", re.IGNORECASE)  # as ``catalog.parse_id`` reads one
_VALUED = frozenset({"--lang", "--submission", "--out"})  # ``grade run``'s options that take a value


def environment(folder: str) -> dict[str, str]:
    """A child's whole environment, its home and temp folder the scratch ``folder``; Windows
    also needs to know where the system is."""
    env = {"PATH": os.defpath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": folder,
           "TMPDIR": folder, "TEMP": folder, "TMP": folder}
    if "SYSTEMROOT" in os.environ and pipes.windows():
        env["SYSTEMROOT"] = os.environ["SYSTEMROOT"]
    return env


class Warm(NamedTuple):
    """A started child waiting for its request: the process, its scratch folder, the parent's
    end of the records pipe, and the number of the child's end (the request's ``fd``).  Not a
    dataclass: ``dataclasses`` imports ``inspect``, which the child would wait for."""

    proc: subprocess.Popen[bytes]
    folder: str
    python: str
    parent: str | None  # where the folder was made (``isolation.scratch_parent``)
    channel: IO[bytes]
    fd: int

    def discard(self) -> None:
        """Kill the unused child, close its pipe and remove its folder."""
        pipes.kill(self.proc)
        for stream in (self.proc.stdin, self.proc.stdout, self.channel):
            if stream is not None:
                stream.close()
        scratch.remove_tree(self.folder)


_waiting: Warm | None = None
_lock = threading.Lock()


def one_exercise(args: Sequence[str]) -> bool:
    """Whether the command line grades one named exercise (``grade ex03``, ``grade run 3
    --lang zh``): the only command whose single child is worth starting early.  A wrong guess
    costs time, never correctness: an untaken child is killed at exit."""
    words, skip = [], False
    for arg in args:
        if not skip and not arg.startswith("-"):
            words.append(arg)
        skip = not skip and arg in _VALUED
    if words[:1] == ["run"]:
        words = words[1:]
    return len(words) == 1 and _ONE_EXERCISE.fullmatch(words[0]) is not None


def start() -> None:
    """Start a child now, as the strongest mode would, for the next ``take`` (see the module
    doc); nothing where the pipes are read with threads."""
    global _waiting
    if pipes.threaded():
        return
    python = isolation.interpreter(isolation.NAMESPACES)
    parent = isolation.scratch_parent(isolation.NAMESPACES)
    folder = tempfile.mkdtemp(prefix="grade-", dir=parent)
    read_fd, write_fd = os.pipe()
    try:
        proc = subprocess.Popen([python, "-I", "-S", "-u", "-c", BOOT], cwd=folder,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, pass_fds=(write_fd,),
                                env=environment(folder), **pipes.session_options())
    except OSError:
        os.close(read_fd)
        scratch.remove_tree(folder)
        return
    finally:
        os.close(write_fd)
    with _lock:
        _waiting = Warm(proc, folder, python, parent, open(read_fd, "rb", buffering=0), write_fd)
    atexit.register(_discard_untaken)


def take(python: str, parent: str | None) -> Warm | None:
    """The child ``start`` began, when it runs ``python`` in a folder of ``parent`` (what the
    answered mode gives); else None, and a child that does not fit is killed."""
    global _waiting
    with _lock:
        found, _waiting = _waiting, None
    if found is None:
        return None
    if (found.python, found.parent) != (python, parent) or found.proc.poll() is not None:
        found.discard()
        return None
    return found


def _discard_untaken() -> None:
    global _waiting
    with _lock:
        found, _waiting = _waiting, None
    if found is not None:
        found.discard()
