"""The child's scratch folder, seen from the parent: what it holds, and removing it whatever
the child left there.

In the ``namespaces`` mode the scratch the child writes to is a tmpfs inside its own mount
namespace, capped by the kernel, and it vanishes with the namespace.  In the other modes the
child writes to a real folder, so the parent measures it while the child runs (``usage``) and
kills the child when it passes the budget, and removes it afterwards with ``remove_tree``: no
recursion and no path longer than one name (a folder nested 100,000 deep is removed like a
flat one), never following a symbolic link, taking back folders the child made unreadable.
Where no Landlock keeps a child of its own uid in its scratch folder, what that uid holds in
the shared writable folders (``/dev/shm`` is memory) counts against the same budget
(``Watch.writer``, ``held``), and is removed afterwards (``sweep``).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from grader.spec.limits import Limits, size

_DIR_FLAGS = os.O_RDONLY | sum(getattr(os, f, 0) for f in ("O_DIRECTORY", "O_NOFOLLOW",
                                                             "O_CLOEXEC"))
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/var/crash")
MAX_SHARED_FOLDERS = 64
"""World-writable folders of root's looked into, at most, below those (``/tmp/.X11-unix``)."""


class Usage(NamedTuple):
    """Bytes and entries under a folder (counting stops once both budgets are passed).  Not a
    dataclass: the isolation probe imports this module before it starts its child."""

    bytes: int
    entries: int


class Watch(NamedTuple):
    """What the parent measures while a child runs: its scratch folder, and the uid whose
    files in the shared writable folders count too (None: a layer of the kernel keeps the
    child's writes in its scratch folder)."""

    folder: str
    writer: int | None = None


def _open_dir(name: str, dir_fd: int | None) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:
        os.chmod(name, stat.S_IRWXU, dir_fd=dir_fd, follow_symlinks=False)
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)


def _on_disk(st: os.stat_result) -> int:
    """Bytes a file takes on disk: its blocks (a sparse file counts what it uses), or its size
    where the system does not count blocks (Windows)."""
    blocks = getattr(st, "st_blocks", None)
    return st.st_size if blocks is None else blocks * 512


def usage(path: str, max_bytes: int, max_entries: int) -> Usage:
    """What ``path`` holds, walking without recursion; stops early once over a budget."""
    total = entries = 0
    pending = [path]
    while pending and total <= max_bytes and entries <= max_entries:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    entries += 1
                    st = entry.stat(follow_symlinks=False)
                    total += _on_disk(st)
                    if stat.S_ISDIR(st.st_mode):
                        pending.append(entry.path)
        except OSError:
            continue
    return Usage(total, entries)


def _empty(fd: int) -> list[str]:
    """Remove every non-folder entry of the folder open at ``fd``; its sub-folders' names."""
    folders = []
    with os.scandir(fd) as listing:
        names = [(e.name, e.is_dir(follow_symlinks=False)) for e in listing]
    for name, is_dir in names:
        if is_dir:
            folders.append(name)
        else:
            try:
                os.unlink(name, dir_fd=fd)
            except FileNotFoundError:
                pass
    return folders


def remove_tree(path: str) -> None:
    """Remove ``path`` and everything under it, depth-first without recursion: one folder is
    open at a time, the way back up is ``..``, and the stack holds only names."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        return
    if os.name != "posix":  # no directory descriptors: the library's removal
        shutil.rmtree(path, ignore_errors=True)
        return
    fd = _open_dir(path, None)
    names: list[str] = []  # the folders we are inside, below ``path``
    pending: list[list[str]] = [_empty(fd)]  # sub-folders still to empty, at each level
    try:
        while pending:
            if pending[-1]:
                name = pending[-1].pop()
                child = _open_dir(name, fd)
                os.close(fd)
                fd = child
                names.append(name)
                pending.append(_empty(fd))
                continue
            pending.pop()
            if not names:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(path)


def _owned(uid: int, folders: tuple[str, ...]) -> Iterator[tuple[str, os.stat_result]]:
    """Each entry ``uid`` owns in the shared writable ``folders``, and in the world-writable
    folders of root's inside them (a child may write into ``/tmp/.X11-unix`` as into
    ``/tmp``), with its ``lstat``."""
    pending, looked = list(folders), 0
    while pending and looked < MAX_SHARED_FOLDERS:
        folder, looked = pending.pop(), looked + 1
        try:
            listing = list(os.scandir(folder))
        except OSError:
            continue
        for entry in listing:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if st.st_uid == uid:
                yield entry.path, st
            elif st.st_uid == 0 and stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH:
                pending.append(entry.path)


def held(uid: int, max_bytes: int, max_entries: int, folders: tuple[str, ...] = WORLD_WRITABLE) -> Usage:
    """What ``uid`` (a child's own uid) holds in the shared writable folders, counted as
    ``usage`` counts a folder; stops early once over a budget."""
    total = entries = 0
    for path, st in _owned(uid, folders):
        entries, total = entries + 1, total + _on_disk(st)
        if stat.S_ISDIR(st.st_mode):
            inside = usage(path, max_bytes - total, max_entries - entries)
            entries, total = entries + inside.entries, total + inside.bytes
        if total > max_bytes or entries > max_entries:
            break
    return Usage(total, entries)


def sweep(uid: int, folders: tuple[str, ...] = WORLD_WRITABLE) -> list[str]:
    """Remove what ``uid`` (a child's own uid, never a person's) left in the shared writable
    folders (``_owned``); the paths removed."""
    removed: list[str] = []
    for path, _st in _owned(uid, folders):
        try:
            remove_tree(path)
            removed.append(path)
        except OSError:
            continue
    return removed


def copy_submission(submission: Path, target: str) -> None:
    """Copy the submission into the scratch folder, refusing a symbolic link (O_NOFOLLOW)."""
    flags = sum(getattr(os, f, 0) for f in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"))
    fd = os.open(submission, os.O_RDONLY | flags)
    with os.fdopen(fd, "rb") as source, open(target, "wb") as copy:
        copy.write(source.read())


def over_budget(watch: Watch | None, limits: Limits) -> str | None:
    """Why a running child is stopped for what it wrote (``watch``: where), or None while it
    stays within its exercise's budget of bytes and of files and folders."""
    if watch is None:
        return None
    used = usage(watch.folder, limits.scratch, limits.scratch_entries)
    where = "its scratch folder"
    if watch.writer is not None:
        shared = held(watch.writer, limits.scratch - used.bytes, limits.scratch_entries - used.entries)
        used = Usage(used.bytes + shared.bytes, used.entries + shared.entries)
        where = "its scratch folder and the shared writable folders (/tmp, /dev/shm...)"
    if used.bytes > limits.scratch or used.entries > limits.scratch_entries:
        return f"filled {where} past {size(limits.scratch)} or {limits.scratch_entries} files and folders"
    return None
