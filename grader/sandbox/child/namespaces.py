"""Put the sandboxed child where the kernel itself stops it: its own namespaces, its own uid,
no capabilities, a file system of a few read-only folders and a size-capped scratch folder.

Runs in the child, before the submission is imported, in one of two ways (``Plan.mode``):

``namespaces``
    a user namespace mapping only the child's uid (a uid of its own from the reserved range when
    the grader is root, else the grader's uid: the other namespaces keep it from everything the
    grader owns), plus pid, ipc, net and mount namespaces.  The mount namespace is rebuilt from
    scratch with ``pivot_root``: an empty read-only root holding the standard library and
    ``micrograph`` (bind-mounted read-only, at their own paths), ``/dev/null``, and the scratch
    folder as a tmpfs capped at ``Plan.scratch_bytes`` and ``Plan.scratch_inodes``.  No
    ``/proc``, no ``/tmp``, no course folder.  The process then forks: the submission runs as
    pid 1 of its pid namespace (it sees no other process), the first process only waits and
    passes its end on.  All capabilities are dropped (bounding set included).
``uid+seccomp``
    (the grader is root, namespaces are refused) the child switches to its uid from the
    reserved range, with no supplementary groups and no capabilities.

Every step is checked; a step that fails raises ``IsolationError`` and the child reports it
instead of running the submission with less than the grader announced.  Only the standard
library is used (imported before anything is locked down); Linux only, imported lazily.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal

from grader.sandbox.child.plan import IsolationError, Plan

_CLONE_NEWNS, _CLONE_NEWIPC, _CLONE_NEWUSER = 0x00020000, 0x08000000, 0x10000000
_CLONE_NEWPID, _CLONE_NEWNET = 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME = 1024, 2048, 1 << 21
_ST_TO_MS = ((os.ST_RDONLY, _MS_RDONLY), (os.ST_NOSUID, _MS_NOSUID), (os.ST_NODEV, _MS_NODEV),
             (os.ST_NOEXEC, _MS_NOEXEC), (os.ST_NOATIME, _MS_NOATIME),
             (os.ST_NODIRATIME, _MS_NODIRATIME), (os.ST_RELATIME, _MS_RELATIME))
_MNT_DETACH = 2
_PR_SET_PDEATHSIG, _PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _AMBIENT_CLEAR_ALL = 1, 24, 47, 4
_PR_SET_DUMPABLE = 4
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_CAP_VERSION_3 = 0x20080522
_OLD_ROOT = ".old-root"


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise IsolationError(f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    enc = (lambda s: None if s is None else s.encode())
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {fstype or 'bind'} on {target}")


def _write(path: str, text: str, dir_fd: int | None = None) -> None:
    try:
        fd = os.open(path, os.O_WRONLY, dir_fd=dir_fd)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
    except OSError as exc:
        raise IsolationError(f"writing {path}: {exc.strerror}") from None


def _unshare(flags: int, what: str) -> None:
    _check(_libc.unshare(flags), f"unshare({what})")


def _map_ids(proc: int, uid: int, gid: int) -> None:
    """Map only the child's own uid and gid (taken before the user namespace existed: inside
    it they read as the overflow id until mapped) into its new user namespace."""
    _write("self/setgroups", "deny", proc)
    _write("self/uid_map", f"{uid} {uid} 1", proc)
    _write("self/gid_map", f"{gid} {gid} 1", proc)


def _locked_flags(path: str) -> int:
    """The flags of the mount holding ``path`` that a read-only remount must keep."""
    st = os.statvfs(path)
    return sum(ms for st_flag, ms in _ST_TO_MS if st.f_flag & st_flag)


def _outermost(paths: tuple[str, ...]) -> list[str]:
    kept: list[str] = []
    for path in sorted({os.path.normpath(p) for p in paths if os.path.isdir(p)}):
        if not any(path == k or path.startswith(k + os.sep) for k in kept):
            kept.append(path)
    return kept


def _build_root(plan: Plan, sources: dict[str, bytes]) -> None:
    """Mount a fresh tree on the scratch path and make it the root (see the module doc)."""
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    root = plan.scratch
    _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,nr_inodes=4096,mode=0755")
    for path in _outermost(plan.readable):
        inside = root + path
        os.makedirs(inside, exist_ok=True)
        _mount(path, inside, None, _MS_BIND | _MS_REC)
        _mount(None, inside, None,
               _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _locked_flags(path))
    os.makedirs(root + "/dev", exist_ok=True)
    open(root + "/dev/null", "wb").close()
    _mount("/dev/null", root + "/dev/null", None, _MS_BIND)
    inside = root + plan.scratch
    os.makedirs(inside, exist_ok=True)
    owner = f",uid={os.geteuid()},gid={os.getegid()}" if plan.uid is None else (
        f",uid={plan.uid},gid={plan.uid}")
    _mount("tmpfs", inside, "tmpfs", _MS_NOSUID | _MS_NODEV,
           f"size={plan.scratch_bytes},nr_inodes={plan.scratch_inodes},mode=0700{owner}")
    for name, source in sources.items():
        target = os.path.join(inside, name)
        with open(target, "wb") as handle:
            handle.write(source)
        if plan.uid is not None:
            os.chown(target, plan.uid, plan.uid)
    os.mkdir(os.path.join(root, _OLD_ROOT))
    number = _SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise IsolationError("pivot_root: unknown architecture")
    _check(_libc.syscall(number, root.encode(), os.path.join(root, _OLD_ROOT).encode()),
           "pivot_root")
    os.chdir("/")
    _check(_libc.umount2(f"/{_OLD_ROOT}".encode(), _MNT_DETACH), "detaching the old root")
    os.rmdir(f"/{_OLD_ROOT}")
    _mount(None, "/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    os.chdir(plan.scratch)


def _become(uid: int) -> None:
    """Switch (as root) to ``uid``: no groups, every capability gone with the root uid."""
    try:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        raise IsolationError(f"switching to uid {uid}: {exc.strerror}") from None
    _libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)  # its own /proc files belong to it again


def drop_capabilities() -> None:
    """Empty the bounding, ambient, effective, permitted and inheritable sets; checked."""
    last = 40
    try:
        with open("/proc/sys/kernel/cap_last_cap") as handle:
            last = int(handle.read())
    except (OSError, ValueError):
        pass
    for cap in range(last + 1):
        _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)  # EPERM when already without CAP_SETPCAP
    _libc.prctl(_PR_CAP_AMBIENT, _AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "dropping capabilities")
    _check(_libc.capget(header, data), "reading capabilities")
    if any(data):
        raise IsolationError("capabilities remain after dropping them")


def _wait_and_pass_on(pid: int) -> None:
    """The first process: wait for the submission's process, then end the same way."""
    os.closerange(0, max(os.sysconf("SC_OPEN_MAX"), 1 << 16))  # the pipes are not its to hold
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(70)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status))


def _fork_into_pid_namespace() -> None:
    pid = os.fork()
    if pid:
        _wait_and_pass_on(pid)
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getpid() != 1:
        raise IsolationError("the pid namespace did not take effect")


def enter_namespaces(plan: Plan, sources: dict[str, bytes]) -> None:
    """Everything the ``namespaces`` mode promises (module doc); returns in the process that
    runs the submission, as pid 1 of its own pid namespace, without capabilities."""
    others = _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC
    proc = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if plan.uid is not None:  # root: build the tree as root, then become the uid
            _unshare(_CLONE_NEWNS, "mount")
            _build_root(plan, sources)
            _become(plan.uid)
            _unshare(_CLONE_NEWUSER | others, "user, pid, net, ipc")
            _map_ids(proc, plan.uid, plan.uid)
        else:
            uid, gid = os.geteuid(), os.getegid()
            _unshare(_CLONE_NEWUSER | _CLONE_NEWNS | others, "user, mount, pid, net, ipc")
            _map_ids(proc, uid, gid)
            _build_root(plan, sources)
    finally:
        os.close(proc)
    _fork_into_pid_namespace()
    drop_capabilities()


def enter_uid(plan: Plan) -> None:
    """Everything the ``uid+seccomp`` mode promises before its seccomp filter: the child's
    own uid, no groups, no capabilities (checked)."""
    if plan.uid is None:
        raise IsolationError("uid+seccomp needs a uid of its own for the child")
    for cap in range(64):
        _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    _become(plan.uid)
    drop_capabilities()
    if os.getuid() != plan.uid or os.getgroups():
        raise IsolationError(f"still not running as uid {plan.uid} alone")
