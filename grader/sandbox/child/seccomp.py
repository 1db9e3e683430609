"""seccomp filters for the sandboxed child, assembled as classic BPF with ctypes.

Why not ``pyseccomp`` or libseccomp's ``seccomp`` binding: both need the libseccomp shared
library (and ``seccomp`` a C build against its headers) on every student laptop, for a filter
of a few dozen instructions that never changes at run time.  The filter below is small enough to
read whole, is built from two tables (what each architecture numbers each system call, and what
the child may not do), and is tested by the hostile gallery.

Two filters, each applied once and for good (``no_new_privs`` is set first):

* ``PROCESSES``  fork/vfork/clone/clone3/execve/execveat fail with EPERM: no new processes, no
                 programs, even as root;
* ``ISOLATION``  signals and ``prlimit`` only on the child itself (``supervise``: all of it but
                 this rule, for the process that starts one submission's children); no System V IPC, no POSIX
                 message queues, no kernel keyrings, no sockets (the wire is a pipe), no
                 ptrace or reading other processes' memory, no io_uring (its operations bypass
                 seccomp), no namespaces, mounts or device files, no changing other
                 processes' scheduling; no file locks (``flock``, ``fcntl``'s record locks,
                 leases) and no file watching (inotify, fanotify, ``fcntl(F_NOTIFY)``): two
                 children share the inodes of the standard library, and a lock taken or a
                 file opened is a signal the other can see; and none of what only a privileged
                 process may do (reboot, swap, host name, the kernel log, kernel modules, the
                 clock, quotas, file handles) nor changing a file's owner, mode, times or
                 extended attributes: in ``limits only`` the child may share its uid with the
                 grader, whose files these would be.

Only the standard library is used: this module is imported before anything is locked down.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from collections.abc import Sequence
from typing import NamedTuple

_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW = 0x7FFF0000
_RET_KILL_PROCESS = 0x80000000
_RET_EPERM = 0x00050000 | 1
_X32_BIT = 0x40000000
_LD_W_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06

PROCESSES = ("clone", "fork", "vfork", "execve", "execveat", "clone3")
_DENIED = (
    # System V IPC and POSIX message queues: channels between children, memory past RLIMIT_AS
    "shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop",
    "msgget", "msgsnd", "msgrcv", "msgctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # sockets: no network, no UNIX sockets (the wire is an inherited pipe)
    "socket", "socketpair",
    # other processes: tracing, their memory, their signals through pidfds, their scheduling
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open",
    "pidfd_send_signal", "pidfd_getfd", "process_madvise", "setpriority", "ioprio_set",
    "sched_setaffinity", "sched_setscheduler", "sched_setparam", "migrate_pages",
    "move_pages",
    # kernel keyrings are shared along the session: a channel between children
    "add_key", "request_key", "keyctl",
    # io_uring runs operations (sockets, opens) that seccomp never sees
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    # namespaces, mounts, device files and FIFOs in shared folders
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "mknod", "mknodat",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",  # the new mount API
    "perf_event_open", "bpf", "userfaultfd",
    # locks and watches on shared inodes: a channel between two children
    "flock", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
    "fanotify_mark",
    # what only a privileged process may do: refused whatever uid the child runs as
    "reboot", "swapon", "swapoff", "sethostname", "setdomainname", "syslog", "sched_setattr",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "acct",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "quotactl", "iopl", "ioperm",
    "open_by_handle_at", "name_to_handle_at", "vhangup", "lookup_dcookie",
    # a file's owner, mode, times and extended attributes (its scratch files need none)
    "chown", "fchown", "lchown", "fchownat", "chmod", "fchmod", "fchmodat", "fchmodat2",
    "utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
    "removexattr", "lremovexattr", "fremovexattr", "setxattrat", "removexattrat",
)
# fcntl's commands that lock, lease or watch a file (F_GETLK and F_OFD_GETLK read others' locks)
_FCNTL_LOCKS = (5, 6, 7, 36, 37, 38, 1024, 1026)
_ARG0_LOW, _ARG1_LOW = 16, 24  # offsets of args[0] and args[1]'s low 32 bits (little-endian)
_SIGNALS = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")


class ArgRule(NamedTuple):
    """A call decided by the low 32 bits of one of its arguments: a value in ``values`` is
    allowed (``allow_listed``) or refused, any other value gets the opposite."""

    offset: int
    values: tuple[int, ...]
    allow_listed: bool


def _rules(own_pid: int | None) -> dict[str, ArgRule]:
    """fcntl without its lock and watch commands; with ``own_pid``, signals and prlimit only
    on that process (prlimit also on 0, "this process")."""
    rules = {"fcntl": ArgRule(_ARG1_LOW, _FCNTL_LOCKS, allow_listed=False)}
    if own_pid is not None:
        pid = own_pid & 0xFFFFFFFF
        rules.update({name: ArgRule(_ARG0_LOW, (pid,), True) for name in _SIGNALS})
        rules["prlimit64"] = ArgRule(_ARG0_LOW, (pid, 0), True)
    return rules


class Arch(NamedTuple):
    """One architecture: its AUDIT_ARCH value, whether x32 numbers must be refused, and its
    system call numbers (a call this architecture lacks is simply absent).  Named tuples, not
    dataclasses: the isolation probe reads this table before it starts its child, and
    ``dataclasses`` imports ``inspect``."""

    audit: int
    x32: bool
    numbers: dict[str, int]


_COMMON = {"pidfd_send_signal": 424, "io_uring_setup": 425, "io_uring_enter": 426,
           "io_uring_register": 427, "pidfd_open": 434, "clone3": 435, "pidfd_getfd": 438,
           "process_madvise": 440, "fchmodat2": 452, "setxattrat": 463, "removexattrat": 466,
           "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
           "fspick": 433, "mount_setattr": 442}
ARCHES = {
    "x86_64": Arch(0xC000003E, True, {
        **_COMMON, "clone": 56, "fork": 57, "vfork": 58, "execve": 59, "execveat": 322,
        "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66,
        "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "semtimedop": 220,
        "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
        "mq_notify": 244, "mq_getsetattr": 245, "socket": 41, "socketpair": 53, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "setpriority": 141,
        "ioprio_set": 251, "sched_setaffinity": 203, "sched_setscheduler": 144,
        "sched_setparam": 142, "migrate_pages": 256, "move_pages": 279, "add_key": 248,
        "request_key": 249, "keyctl": 250, "unshare": 272, "setns": 308, "mount": 165,
        "umount2": 166, "pivot_root": 155, "chroot": 161, "mknod": 133, "mknodat": 259,
        "perf_event_open": 298, "bpf": 321, "userfaultfd": 323, "kill": 62, "tkill": 200,
        "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "prlimit64": 302,
        "fcntl": 72, "flock": 73, "inotify_init": 253, "inotify_init1": 294,
        "inotify_add_watch": 254, "fanotify_init": 300, "fanotify_mark": 301, "reboot": 169,
        "swapon": 167, "swapoff": 168, "sethostname": 170, "setdomainname": 171, "syslog": 103,
        "sched_setattr": 314, "init_module": 175, "finit_module": 313, "delete_module": 176,
        "kexec_load": 246, "kexec_file_load": 320, "acct": 163, "settimeofday": 164,
        "clock_settime": 227, "clock_adjtime": 305, "adjtimex": 159, "quotactl": 179,
        "iopl": 172, "ioperm": 173, "open_by_handle_at": 304, "name_to_handle_at": 303,
        "vhangup": 153, "lookup_dcookie": 212, "chown": 92, "fchown": 93, "lchown": 94,
        "fchownat": 260, "chmod": 90, "fchmod": 91, "fchmodat": 268, "utime": 132,
        "utimes": 235, "futimesat": 261, "utimensat": 280, "setxattr": 188, "lsetxattr": 189,
        "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198, "fremovexattr": 199}),
    "aarch64": Arch(0xC00000B7, False, {
        **_COMMON, "clone": 220, "execve": 221, "execveat": 281,
        "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197, "semget": 190, "semctl": 191,
        "semtimedop": 192, "semop": 193, "msgget": 186, "msgctl": 187, "msgrcv": 188,
        "msgsnd": 189, "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182,
        "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185, "socket": 198,
        "socketpair": 199, "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271,
        "kcmp": 272, "setpriority": 140, "ioprio_set": 30, "sched_setaffinity": 122,
        "sched_setscheduler": 119, "sched_setparam": 118, "migrate_pages": 238,
        "move_pages": 239, "add_key": 217, "request_key": 218, "keyctl": 219, "unshare": 97,
        "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, "mknodat": 33,
        "perf_event_open": 241, "bpf": 280, "userfaultfd": 282, "kill": 129, "tkill": 130,
        "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240, "prlimit64": 261,
        "fcntl": 25, "flock": 32, "inotify_init1": 26, "inotify_add_watch": 27,
        "fanotify_init": 262, "fanotify_mark": 263, "reboot": 142, "swapon": 224,
        "swapoff": 225, "sethostname": 161, "setdomainname": 162, "syslog": 116,
        "sched_setattr": 274, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "kexec_load": 104, "kexec_file_load": 294, "acct": 89, "settimeofday": 170,
        "clock_settime": 112, "clock_adjtime": 266, "adjtimex": 171, "quotactl": 60,
        "open_by_handle_at": 265, "name_to_handle_at": 264, "vhangup": 58,
        "lookup_dcookie": 18, "fchown": 55, "fchownat": 54, "fchmod": 52, "fchmodat": 53,
        "utimensat": 88, "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14,
        "lremovexattr": 15, "fremovexattr": 16}),
}


_PACK = struct.Struct("=HBBI").pack


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return _PACK(code, jt, jf, k)


def program(arch: Arch, denied: tuple[str, ...], rules: dict[str, ArgRule]) -> list[bytes]:
    """The BPF program: wrong architecture kills; ``denied`` calls fail with EPERM, so do
    calls that their ``rules`` refuse; everything else is allowed."""
    deny = [arch.numbers[n] for n in denied if n in arch.numbers]
    checks = [(arch.numbers[n], rule) for n, rule in rules.items() if n in arch.numbers]
    # layout: header, deny jumps, rule dispatch, allow, rule bodies, EPERM, ALLOW (BPF jumps
    # only forward); a body loads its argument, tests each value, and ends with the default
    bodies = [len(rule.values) + 2 for _, rule in checks]
    head = [_insn(_LD_W_ABS, 4), _insn(_JEQ, arch.audit, jt=1), _insn(_RET, _RET_KILL_PROCESS),
            _insn(_LD_W_ABS, 0)]
    first_body = len(head) + (1 if arch.x32 else 0) + len(deny) + len(checks) + 1
    eperm_at = first_body + sum(bodies)
    allow_at = eperm_at + 1
    prog = list(head)
    if arch.x32:
        prog.append(_insn(_JGE, _X32_BIT, jt=eperm_at - len(prog) - 1))
    for nr in deny:
        prog.append(_insn(_JEQ, nr, jt=eperm_at - len(prog) - 1))
    body_at = first_body
    for (nr, _), size in zip(checks, bodies):
        prog.append(_insn(_JEQ, nr, jt=body_at - len(prog) - 1))
        body_at += size
    prog.append(_insn(_RET, _RET_ALLOW))
    for _, rule in checks:
        listed, other = (allow_at, _RET_EPERM) if rule.allow_listed else (eperm_at, _RET_ALLOW)
        prog.append(_insn(_LD_W_ABS, rule.offset))
        for value in rule.values:
            prog.append(_insn(_JEQ, value & 0xFFFFFFFF, jt=listed - len(prog) - 1))
        prog.append(_insn(_RET, other))
    prog.append(_insn(_RET, _RET_EPERM))
    prog.append(_insn(_RET, _RET_ALLOW))
    assert len(prog) == allow_at + 1 and len(prog) < 256
    return prog


def _install(prog: Sequence[bytes]) -> bool:
    code = b"".join(prog)
    buf = ctypes.create_string_buffer(code, len(code))

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Prog(len(prog), ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


def this_arch() -> Arch | None:
    """The table for this machine, or None (not Linux, or an architecture we do not know)."""
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return None
    return ARCHES.get(os.uname().machine)


def _without_processes() -> tuple[bytes, ...] | None:
    arch = this_arch()
    return None if arch is None else tuple(program(arch, PROCESSES, {}))


_WITHOUT_PROCESSES = _without_processes()
"""``forbid_processes``' program, the same in every process: built once, when this module is
loaded (before the forks of a batch's child), not again in each of its workers."""


def forbid_processes() -> list[str]:
    """No new processes or programs; the layer's name, or [] where unavailable."""
    if _WITHOUT_PROCESSES is None or not _install(_WITHOUT_PROCESSES):
        return []
    return ["seccomp"]


def supervise() -> list[str]:
    """The isolation filter without its rule on signals, for the process that starts and kills
    the children of one submission (``grader.sandbox.child.supervisor``: it runs no submitted
    code); each of its children adds the whole ``isolate`` filter, naming itself, on top."""
    arch = this_arch()
    if arch is None or not _install(program(arch, _DENIED, _rules(None))):
        return []
    return ["seccomp:supervisor"]


def isolate() -> list[str]:
    """The isolation filter (see the module doc); the layer's name, or [] where unavailable."""
    arch = this_arch()
    if arch is None or not _install(program(arch, _DENIED, _rules(os.getpid()))):
        return []
    return ["seccomp:isolation"]
