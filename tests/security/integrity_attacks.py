"""Submissions that go after the grade itself rather than the machine: the wire back to the
grader, a channel to a run holding hidden tests, the course folder without Landlock, and root.

Each is an ``ex01`` file with no answer in it: whatever it does, it must score what the honest
wrong answer beside it (the untouched stub) scores, 0.  They reach the layers beneath the
child's sentinel (``ctypes``, raw descriptors), so they run with ``GRADE_SENTINEL=off``; the
parent's reading of the source still flags each (``test_provenance.py`` covers the sentinel).  The ``report`` attacks also print one
line per attempt, ``INTEGRITY <name> <outcome>``, so the tests can check that each attempt was
refused (``EPERM``, ``EACCES``...) and not merely unrewarded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PRELUDE = '''
import ctypes, errno, json, os, stat, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def said(name, outcome):
    print("INTEGRITY", name, outcome, flush=True)
def attempt(name, call):
    try:
        result = call()
    except OSError as exc:
        said(name, errno.errorcode.get(exc.errno, exc.errno))
        return
    if isinstance(result, int) and result < 0:
        said(name, errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno()))
    else:
        said(name, "ALLOWED")
TESTS = @NAMES@  # the test module is out of the child's reach: its test names, as written
def fifos():
    found = []
    for fd in range(3, 256):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                found.append(fd)
        except OSError:
            pass
    return found
'''


@dataclass(frozen=True)
class Attack:
    name: str
    kind: str  # the class of attack it belongs to
    code: str


def _attack(name: str, kind: str, body: str) -> Attack:
    return Attack(name, kind, PRELUDE + body)


WIRE = [
    _attack("forged_records_on_every_pipe", "the wire", '''
names = TESTS
records = [{"kind": "import", "error": None}]
records += [{"kind": "test", "name": n, "obs": None, "error": None} for n in names]
records += [{"kind": "done"}]
data = b"".join(json.dumps(r).encode() + b"\\n" for r in records)
for fd in fifos():
    try:
        os.write(fd, data)
    except OSError:
        pass
os._exit(0)
'''),
    _attack("answers_written_ahead", "the wire", '''
names = TESTS
for fd in fifos():
    for number, name in enumerate(["import", *names]):
        kind = "import" if number == 0 else "test"
        record = {"kind": kind, "error": None} if kind == "import" else {
            "kind": "test", "name": name, "obs": None, "error": None}
        try:
            os.write(fd, json.dumps({"nonce": "0" * 32, "record": record}).encode() + b"\\n")
        except OSError:
            pass
'''),
    _attack("the_relays_pipe_through_proc", "the wire", '''
import glob
done = json.dumps({"kind": "done"}).encode() + b"\\n"
for path in glob.glob(f"/proc/{os.getppid()}/fd/*"):
    try:
        fd = os.open(path, os.O_WRONLY)
        os.write(fd, done)
        said("relay_fd", "ALLOWED")
    except OSError as exc:
        said("relay_fd", errno.errorcode.get(exc.errno, exc.errno))
os._exit(0)
'''),
    _attack("signal_the_relay", "the wire", '''
import signal
attempt("stop_relay", lambda: os.kill(os.getppid(), signal.SIGSTOP))
attempt("kill_relay", lambda: os.kill(os.getppid(), signal.SIGKILL))
'''),
]

# fcntl commands: F_GETLK 5, F_SETLK 6, F_OFD_SETLK 37, F_SETLEASE 1024, F_NOTIFY 1026
CHANNELS = [
    _attack("locks_and_watches", "no channel between runs", '''
import fcntl
shared = os.open(os.__file__, os.O_RDONLY)
folder = os.open(os.path.dirname(os.__file__), os.O_RDONLY)
lock = (ctypes.c_short * 16)(fcntl.F_RDLCK)
attempt("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt("fcntl_setlk", lambda: libc.fcntl(shared, 6, lock))
attempt("fcntl_getlk", lambda: libc.fcntl(shared, 5, lock))
attempt("fcntl_ofd_setlk", lambda: libc.fcntl(shared, 37, lock))
attempt("fcntl_setlease", lambda: libc.fcntl(shared, 1024, 0))
attempt("fcntl_notify", lambda: libc.fcntl(folder, 1026, 0x80000001))
attempt("inotify_init1", lambda: libc.inotify_init1(0))
attempt("fanotify_init", lambda: libc.fanotify_init(0, 0))
'''),
]

# Two runs alive at once (a public run beside a full one, were they ever started together): the
# sender tries every lock and watch on the inodes both share, again and again for a while; the
# receiver looks for any lock on them, or any event on them, over the same while.  Each prints
# when it looked (CLOCK_MONOTONIC, one clock for the machine), so the test knows they overlapped.
SENDER = PRELUDE + """
import fcntl, time
shared = os.open(os.__file__, os.O_RDONLY)
folder = os.open(os.path.dirname(os.__file__), os.O_RDONLY)
lock = (ctypes.c_short * 16)(fcntl.F_WRLCK)
said("window", f"{time.monotonic():.3f}")
end = time.monotonic() + @SECONDS@
while time.monotonic() < end:
    attempt("flock", lambda: fcntl.flock(shared, fcntl.LOCK_EX | fcntl.LOCK_NB))
    attempt("lockf", lambda: fcntl.lockf(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
    attempt("fcntl_setlk", lambda: libc.fcntl(shared, 6, lock))
    attempt("fcntl_ofd_setlk", lambda: libc.fcntl(shared, 37, lock))
    attempt("fcntl_setlease", lambda: libc.fcntl(shared, 1024, 0))
    attempt("open_again", lambda: os.close(os.open(os.__file__, os.O_RDONLY)))  # what a watch would see
    time.sleep(0.05)
said("window", f"{time.monotonic():.3f}")
"""
RECEIVER = PRELUDE + """
import fcntl, struct, time
shared = os.open(os.__file__, os.O_RDONLY)
inode = os.fstat(shared).st_ino
probe = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
said("window", f"{time.monotonic():.3f}")
watch = libc.inotify_init1(os.O_NONBLOCK)
said("inotify_init1", "ALLOWED" if watch >= 0 else errno.errorcode.get(ctypes.get_errno()))
if watch >= 0:
    libc.inotify_add_watch(watch, os.__file__.encode(), 0xFFF)
seen = set()
end = time.monotonic() + @SECONDS@
while time.monotonic() < end:
    try:
        fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        seen.add("flock " + errno.errorcode.get(exc.errno, str(exc.errno)))
    try:
        held = struct.unpack("hhqqi", fcntl.fcntl(shared, fcntl.F_GETLK, probe))[0]
        seen.add("getlk " + ("unlocked" if held == fcntl.F_UNLCK else "LOCKED"))
    except OSError as exc:
        seen.add("getlk " + errno.errorcode.get(exc.errno, str(exc.errno)))
    try:
        with open("/proc/locks") as listed:
            seen.add("proc_locks " + ("LOCKED" if f":{inode} " in listed.read() else "none"))
    except OSError as exc:
        seen.add("proc_locks " + errno.errorcode.get(exc.errno, str(exc.errno)))
    if watch >= 0:
        try:
            seen.add("inotify " + ("EVENT" if os.read(watch, 4096) else "none"))
        except BlockingIOError:
            seen.add("inotify none")
    time.sleep(0.05)
said("window", f"{time.monotonic():.3f}")
print("SEEN", sorted(seen), flush=True)
"""
CONCURRENT_SECONDS = 2.0  # each run's while: long enough that two runs started together overlap


COURSE = [
    _attack("the_course_folder_on_sys_path", "fail closed without Landlock", '''
import importlib
said("course_on_path", "ALLOWED" if any(
    os.path.isdir(os.path.join(p or ".", "solutions")) for p in sys.path) else "EABSENT")
for name in ("solutions.ex01_graph", "grader.exercises.ex02"):  # ex01's own is in memory
    try:
        importlib.import_module(name)
        said(f"import_{name}", "ALLOWED")
    except ImportError as exc:
        said(f"import_{name}", type(exc).__name__)
'''),
    _attack("read_solutions_tests_and_cache", "fail closed without Landlock", '''
for label, path in (("solution", "@SOLUTIONS@/ex01_graph.py"), ("tests", "@TESTS@/ex01.py")):
    attempt("read_" + label, lambda: open(path).read())
cache = "@CACHE@"
def read_cache():
    for name in os.listdir(cache):
        open(os.path.join(cache, name)).read()
    return 0
attempt("read_cache", read_cache)
'''),
]

ROOT = [
    _attack("privileged_calls", "limits only keeps no root", '''
caps = (ctypes.c_uint32 * 6)()
header = (ctypes.c_uint32 * 2)(0x20080522, 0)
libc.capget(header, caps)
said("uid", "ROOT" if os.getuid() == 0 else "UNPRIVILEGED")
said("capabilities", "SOME" if any(caps) else "NONE")
said("no_new_privs", "SET" if libc.prctl(39, 0, 0, 0, 0) == 1 else "UNSET")
host = os.uname().nodename.encode()
attempt("reboot", lambda: libc.syscall(169 if os.uname().machine == "x86_64" else 142, 0, 0, 0, None))
attempt("swapon", lambda: libc.swapon(b"/nonexistent-swap", 0))
attempt("sethostname", lambda: libc.sethostname(host, len(host)))
attempt("kernel_log", lambda: libc.klogctl(3, ctypes.create_string_buffer(64), 64))
attempt("sched_setattr", lambda: libc.syscall(314 if os.uname().machine == "x86_64" else 274,
                                              1, ctypes.create_string_buffer(56), 0))
attempt("open_tree", lambda: libc.syscall(428, -100, b"/", 0))  # the new mount API (same number on both)
attempt("fsopen", lambda: libc.syscall(430, b"tmpfs", 0))
attempt("sched_fifo", lambda: libc.sched_setscheduler(0, 1, (ctypes.c_int * 1)(10)))
outside = os.__file__
attempt("chown_outside", lambda: os.chown(outside, 0, 0))
attempt("chmod_outside", lambda: os.chmod(outside, 0o777))
attempt("utime_outside", lambda: os.utime(outside, (0, 0)))
attempt("setxattr_outside", lambda: os.setxattr(outside, "security.capability", b"\\0" * 20))
open("mine", "w").close()
attempt("chmod_scratch", lambda: os.chmod("mine", 0o777))
attempt("setxattr_scratch", lambda: os.setxattr("mine", "user.x", b"1"))
'''),
]

ATTACKS = WIRE + CHANNELS + COURSE + ROOT
LINE = re.compile(r"INTEGRITY (\S+) (\S+)")


def code(attack: Attack, solutions: str, tests: str, cache: str, names: list[str]) -> str:
    """The attack's file, aimed at this course's folders and the names of ex01's tests."""
    return (attack.code.replace("@SOLUTIONS@", solutions).replace("@TESTS@", tests)
            .replace("@CACHE@", cache).replace("@NAMES@", repr(names)))


def said(text: str) -> dict[str, str]:
    """The ``INTEGRITY name outcome`` lines in a run's printed output, by name (a name tried
    more than once keeps ALLOWED if any attempt got it)."""
    outcomes: dict[str, str] = {}
    for name, outcome in LINE.findall(text):
        if outcomes.get(name) != "ALLOWED":
            outcomes[name] = outcome
    return outcomes
