"""The uids a root grader's children run as: a reserved range, each uid held by one running
child at a time, on this machine, through a lock file per uid in a folder only root can write
(two graders at once never hand one uid to two children).  Here too the error a grader meets
when the isolation it needs cannot be had: taking a uid is the first step that can fail."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from contextlib import contextmanager
from typing import Iterator

UID_BASE, UID_COUNT = 1_900_000_000, 1 << 16  # reserved for children: no account uses these
_LOCK_DIR = "/run/micrograph-sandbox"


class IsolationUnavailable(Exception):
    """The isolation asked for (or needed, as root) is not available; one line saying what
    to do."""


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


_taken: set[int] = set()
_taken_lock = threading.Lock()


def _lock_dir() -> str:
    for folder in (_LOCK_DIR, os.path.join(tempfile.gettempdir(), "micrograph-sandbox")):
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            st = os.lstat(folder)
            if st.st_uid == 0 and st.st_mode & 0o077 == 0 and not os.path.islink(folder):
                return folder
        except OSError:
            continue
    raise IsolationUnavailable("no private folder for the sandbox's uid locks")


@contextmanager
def child_uid() -> Iterator[int | None]:
    """A uid from the reserved range that no other running child (of this or another grader
    on the machine) holds; None when the grader is not root (it cannot switch uid) or not on
    Linux (the only system whose modes switch uid)."""
    if not running_as_root() or sys.platform != "linux":
        yield None
        return
    import fcntl  # POSIX only, and only root gets here

    folder = _lock_dir()
    with _taken_lock:
        start = (os.getpid() * 97) % UID_COUNT
        for i in range(UID_COUNT):
            uid = UID_BASE + (start + i) % UID_COUNT
            if uid in _taken:
                continue
            fd = os.open(os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                         0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            _taken.add(uid)
            break
        else:
            raise IsolationUnavailable("every uid reserved for children is in use")
    try:
        yield uid
    finally:
        with _taken_lock:
            _taken.discard(uid)
        os.close(fd)
