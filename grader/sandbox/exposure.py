"""Fail closed without Landlock: whether a child could read what it must not (the solutions,
the expected answers, the test modules), and the course autograder's refusal when it could.

Landlock is what keeps a child of ``uid+seccomp`` or ``limits only`` from reading files any
user may read; without it (an older kernel, a container profile that refuses ``landlock_*``,
``$GRADE_LANDLOCK=off``) those files' permissions are all that is left.  ``namespaces`` needs
neither: its file system holds none of them.
"""

from __future__ import annotations

import os
from pathlib import Path

from grader.sandbox import isolation, uids

_WALK_LIMIT = 10_000  # entries looked at under one folder: past that, assume one is readable


def _readable_by_others(path: str) -> bool:
    """Whether an unrelated uid could read ``path`` or a file under it: every folder above
    searchable by others, and the file (or some file reached through searchable folders)
    readable by others."""
    if not isolation.others_can(os.path.dirname(os.path.realpath(path)) or "/", 0o1):
        return False
    pending, seen = [os.path.realpath(path)], 0
    while pending:
        current = pending.pop()
        try:
            st = os.stat(current)
        except OSError:
            continue
        if not os.path.isdir(current):
            if st.st_mode & 0o004:
                return True
            continue
        if st.st_mode & 0o001 == 0:
            continue
        try:
            names = os.listdir(current)
        except OSError:
            continue  # a folder we (root) cannot list: nobody else can either
        seen += len(names)
        if seen > _WALK_LIMIT:
            return True
        pending += [os.path.join(current, n) for n in names]
    return False


def exposed(paths: list[Path | str | None], mode: isolation.Isolation | None = None) -> list[str]:
    """Those of ``paths`` a child of ``mode`` (the current one by default) could read: none in
    ``namespaces`` (its file system holds none of them) or where its probe child applied
    Landlock; otherwise those an unrelated uid could read (children that drop to a uid of
    their own), or every existing one (children that run as the grader's uid)."""
    mode = mode or isolation.current()
    if mode.mode == isolation.NAMESPACES or any(x.startswith("landlock") for x in mode.layers):
        return []
    found = [str(p) for p in paths if p is not None and os.path.exists(p)]
    if isolation.drops_uid(mode.mode):
        return [p for p in found if _readable_by_others(p)]
    return found


def refuse(paths: list[Path | str | None]) -> None:
    """For a course autograder: raise IsolationUnavailable (one sentence saying what to do)
    when a child could read one of ``paths`` (solutions, tests, expected answers)."""
    mode = isolation.current()
    found = exposed(paths, mode)
    if not found:
        return
    if isolation.drops_uid(mode.mode):
        raise uids.IsolationUnavailable(
            f"Landlock is not available here ({mode.mode}), and a submission's uid could read "
            f"{found[0]}: make it unreadable to other users (chmod -R o-rwx {found[0]}), or "
            "grade on a Linux kernel with Landlock (5.13 or later)")
    raise uids.IsolationUnavailable(
        f"Landlock is not available here ({mode.mode}), and submissions run as your own user, "
        f"who can read {found[0]}: grade as root on Linux (each submission then runs as a uid "
        "of its own) or on a Linux kernel with Landlock (5.13 or later)")
