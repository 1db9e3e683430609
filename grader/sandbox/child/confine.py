"""Confine the current process before it imports untrusted code (runs in the sandboxed child).

Three layers, each applied when the platform has it, each reported by name:

* ``rlimit``   address space, CPU seconds, file size, open files, no core dumps, no new processes
               (``RLIMIT_NPROC`` = 0; the kernel ignores it for root, hence the next layer);
* ``seccomp``  a filter that makes fork/vfork/clone/clone3/execve/execveat fail with EPERM, so a
               fork bomb or ``os.system`` cannot escape the process group, even as root
               (``grader.sandbox.child.seccomp``; the isolation filter is applied before, by
               ``grader.sandbox.child.isolate``);
* ``landlock`` the file system shrinks to reading a few directories (the standard library,
               ``micrograph``) and reading/writing the scratch directory: the solutions, the hidden
               tests on disk and the cached expected answers are out of reach, and nothing outside
               the scratch directory can be written.  With Landlock ABI >= 4 TCP is refused, and
               with ABI >= 6 signals to processes outside the sandbox (the grader) are refused.

Only the stdlib (and ``grader.spec.limits``, whose numbers these are) is used: this module is
imported before anything is locked down.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from typing import Iterable

from grader.sandbox.child.seccomp import forbid_processes
from grader.spec.limits import Limits

try:
    import resource  # POSIX only: on Windows no rlimit, the parent's wall-clock limit holds
except ImportError:
    resource = None  # type: ignore[assignment]

# --- rlimits -------------------------------------------------------------------------------


def limit_resources(limits: Limits) -> list[str]:
    """Set the rlimits from the exercise's ``Limits``; returns what was applied (some are
    missing on some platforms)."""
    applied = []
    for name, value, hard in (
        ("RLIMIT_AS", limits.memory, limits.memory),
        # SIGXCPU at the limit, told as the CPU time used up; SIGKILL a second later, for a
        # process that handles SIGXCPU (with soft and hard equal, the kernel sends SIGKILL alone)
        ("RLIMIT_CPU", limits.cpu_seconds, limits.cpu_seconds + 1),
        ("RLIMIT_FSIZE", limits.file_size, limits.file_size),
        ("RLIMIT_NOFILE", limits.open_files, limits.open_files),
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_NPROC", 0, 0),
    ):
        which = getattr(resource, name, None)
        if which is None:
            continue
        try:
            resource.setrlimit(which, (value, hard))
            applied.append(name)
        except (ValueError, OSError):
            pass
    return ["rlimit:" + ",".join(applied)] if applied else []


# --- landlock ------------------------------------------------------------------------------

_PR_SET_NO_NEW_PRIVS = 38


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _no_new_privs(libc: ctypes.CDLL) -> bool:
    return libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0


_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_READ_FILE, _READ_DIR, _WRITE_FILE, _TRUNCATE = 1 << 2, 1 << 3, 1 << 1, 1 << 14
_FILE_ONLY_RIGHTS = (1 << 0) | _WRITE_FILE | _READ_FILE | _TRUNCATE | (1 << 15)


def _fs_rights(abi: int) -> int:
    rights = (1 << 13) - 1  # ABI 1: execute ... make_sym
    if abi >= 2:
        rights |= 1 << 13  # refer
    if abi >= 3:
        rights |= _TRUNCATE
    if abi >= 5:
        rights |= 1 << 15  # ioctl_dev
    return rights


def restrict_filesystem(read: Iterable[str], read_write: Iterable[str]) -> list[str]:
    """Landlock: allow reading ``read`` and everything on ``read_write``; nothing else."""
    if sys.platform != "linux":
        return []
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    if abi < 1:
        return []
    fs = _fs_rights(abi)
    net = 0b11 if abi >= 4 else 0  # bind_tcp | connect_tcp
    scoped = 0b11 if abi >= 6 else 0  # abstract unix sockets | signals
    attr = struct.pack("=QQQ", fs, net, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    attr_buf = ctypes.create_string_buffer(attr, 24)
    ruleset = libc.syscall(_SYS_CREATE_RULESET, attr_buf, ctypes.c_size_t(size), 0)
    if ruleset < 0:
        return []
    try:
        reading = _READ_FILE | _READ_DIR
        rules = [(p, reading) for p in read] + [(p, fs) for p in read_write]
        for path, rights in rules:
            _add_path_rule(libc, ruleset, path, rights)
        if not _no_new_privs(libc) or libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
            return []
    finally:
        os.close(ruleset)
    extra = (["net"] if net else []) + (["signals"] if scoped else [])
    return [f"landlock:abi{abi}" + "".join("+" + e for e in extra)]


def _add_path_rule(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that does not exist needs no access
    try:
        if not os.path.isdir(path):
            rights &= _FILE_ONLY_RIGHTS
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, rule, 0)
    finally:
        os.close(fd)


def confine(limits: Limits, *, read: Iterable[str], read_write: Iterable[str],
            landlock: bool = True) -> list[str]:
    """Apply every layer available here (Landlock only when ``landlock``); returns the names
    of the layers applied."""
    applied = restrict_filesystem(read, read_write) if landlock else []
    applied += forbid_processes()
    applied += limit_resources(limits)
    return applied
