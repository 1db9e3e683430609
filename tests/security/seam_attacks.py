"""A gallery of ex01 submissions that go after the engine's seams and the sandbox from inside a
run with every layer on (the sentinel included), one class per way in.

Provenance (``FORGERIES``): the honest wrong ex01 (``provenance_attacks.HONEST_WRONG``: its
``backprop`` computes a formula, its ``grad_by_paths`` asks the engine) plus one way of passing
the formula off as a gradient backward wrote, or the engine's pass off as none: through the
engine's public hooks, through a graph of the submission's own, by a write to ``.grad`` after
a backward, by a class of the engine rewritten for the length of one call, by a frozen
dataclass's ``__init__`` (the generic ``object.__setattr__``) applied to an engine module.
Each must earn no more than the honest wrong answer, and those that reach grading's internals
are flagged for the instructor.

The sandbox (``SYSTEM``): files outside the scratch folder (a canary folder the test made,
open to everyone), other processes, locks and shared folders another run could see, the
solutions, the tests and the expected answers, the process's own pipes by path, root's calls.
Each prints ``INTEGRITY <name> <outcome>`` per attempt (``integrity_attacks.said`` reads them):
none may be ``ALLOWED``.
"""

from __future__ import annotations

from dataclasses import dataclass

from provenance_attacks import HONEST_WRONG

from grader.sandbox.child.wire import Touch


@dataclass(frozen=True)
class Seam:
    name: str
    kind: str | None  # what the flag names; None: refused without a flag, or nothing graded reached
    code: str


def _backprop(body: str, prelude: str = "") -> str:
    """The honest wrong answer whose ``forge(dw, dx)`` (called with the formula's numbers, which
    ``backprop`` returns) returns what ``backprop`` returns instead."""
    source = HONEST_WRONG.replace("    forge(dw, dx)\n    return dw, dx\n", "    return forge(dw, dx)\n")
    return source.replace("def forge(dw: float, dx: float) -> None:\n    pass\n",
                          prelude + "def forge(dw, dx):\n" + body)


_ASKS = "    return hide(lambda: micrograph.grad(y, [leaf], retain_graph=True)[0].item())\n"
assert HONEST_WRONG.count(_ASKS) == 1


def _by_paths(body: str, prelude: str) -> str:
    """The honest wrong answer whose ``grad_by_paths`` (which asks the engine) runs ``body``."""
    source = HONEST_WRONG.replace(_ASKS, body)
    return source.replace("def hide(run):\n", prelude + "def hide(run):\n")


def _hide(body: str, prelude: str = "") -> str:
    return HONEST_WRONG.replace("def hide(run):\n    return run()\n", prelude + "def hide(run):\n" + body)


# a stand-in for micrograph.observe whose pass_started counts nothing and tells no observer
_QUIET = '''import dataclasses
import micrograph
import micrograph.engine
from micrograph import observe


@dataclasses.dataclass(frozen=True)
class Swap:
    observe: object


class Quiet:
    def __getattr__(self, name):
        return (lambda *args: None) if name == "pass_" + "started" else getattr(observe, name)


'''

FORGERIES = [
    Seam("laundered_through_a_graph_of_its_own", None, _backprop('''
    a, b = Value(1.0, requires_grad=True), Value(1.0, requires_grad=True)
    (a * dw + b * dx).backward()
    return a.grad.item(), b.grad.item()
''')),
    Seam("laundered_through_a_tensor_hook", None, _backprop('''
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    a.register_hook(lambda g: Value(dw))
    b.register_hook(lambda g: Value(dx))
    (a + b).backward()
    return a.grad.item(), b.grad.item()
''')),
    Seam("laundered_through_a_node_hook", None, _backprop('''
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    y = a + b
    y.grad_fn.register_hook(lambda grads_in, grads_out: (Value(dw), Value(dx)))
    y.backward()
    return a.grad.item(), b.grad.item()
''')),
    Seam("laundered_by_a_post_accumulate_hook", None, _backprop('''
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    def rewrite(v, number):
        v.grad.data = Value(number)
    a.register_post_accumulate_grad_hook(lambda v: rewrite(v, dw))
    b.register_post_accumulate_grad_hook(lambda v: rewrite(v, dx))
    (a + b).backward()
    return a.grad.item(), b.grad.item()
''')),
    Seam("grad_assigned_after_a_backward", None, _backprop('''
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    (a + b).backward()
    a.grad, b.grad = Value(dw), Value(dx)
    return a.grad.item(), b.grad.item()
''')),
    Seam("grad_data_written_after_a_backward", None, _backprop('''
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    (a + b).backward()
    a.grad.data, b.grad.data = Value(dw), Value(dx)
    return a.grad.item(), b.grad.item()
''')),
    # an engine class rewritten for one call and put back: refused as it is written
    Seam("an_engine_class_swapped_for_one_call", Touch.OBSERVER.value, _backprop('''
    import micrograph
    a, b = Value(0.0, requires_grad=True), Value(0.0, requires_grad=True)
    real = micrograph.Value.item
    try:
        micrograph.Value.item = lambda self: dw if self is a.grad else dx if self is b.grad else real(self)
        print("INTEGRITY class_write ALLOWED")
    except (TypeError, PermissionError):
        print("INTEGRITY class_write EPERM")
    try:
        (a + b).backward()
        return a.grad.item(), b.grad.item()
    finally:
        try:
            micrograph.Value.item = real
        except (TypeError, PermissionError):
            pass
''')),
    Seam("a_record_class_swapped_until_a_finaliser", Touch.OBSERVER.value, _backprop('''
    import weakref
    from micrograph import observe
    record = observe.GradWrite
    real = vars(record)["by_engine"]
    try:
        record.by_engine = property(lambda self: True)
        print("INTEGRITY class_write ALLOWED")
    except (TypeError, PermissionError):
        print("INTEGRITY class_write EPERM")
    leaf = Value(dw)
    weakref.finalize(leaf, lambda: setattr(record, "by_engine", real))
    return dw, dx
''')),
    # the engine's own module global, written past the seal and put back within the call: a
    # pass of micrograph.grad that counts nothing and tells no observer
    Seam("an_engine_global_swapped_by_a_frozen_dataclass", Touch.OBSERVER.value, _hide('''
    try:
        Swap.__init__(micrograph.engine, Quiet())
    except PermissionError:
        pass
    try:
        return run()
    finally:
        try:
            Swap.__init__(micrograph.engine, observe)
        except PermissionError:
            pass
''', _QUIET)),
    # a builtin the engine's code looks up, shadowed by a new global of the engine's module
    Seam("a_builtin_shadowed_in_an_engine_module", Touch.OBSERVER.value, _hide('''
    try:
        Shadow.__init__(micrograph.engine, lambda x, kind: kind is not AccumulateGrad and isinstance(x, kind))
    except PermissionError:
        pass
    return run()
''', '''import dataclasses
import micrograph
import micrograph.engine
from micrograph.node import AccumulateGrad


@dataclasses.dataclass(frozen=True)
class Shadow:
    isinstance: object


''')),
    # the pass counter the probe reads after the call, swapped until the probe's leaf is freed
    Seam("the_pass_counter_swapped_until_a_finaliser", Touch.OBSERVER.value, _by_paths('''
    import weakref
    real = observe.passes
    seen = real()
    result = micrograph.grad(y, [leaf], retain_graph=True)[0].item()
    try:
        Count.__init__(observe, lambda: seen)
        weakref.finalize(leaf, Count.__init__, observe, real)
    except PermissionError:
        pass
    return result
''', '''import dataclasses
from micrograph import observe


@dataclasses.dataclass(frozen=True)
class Count:
    passes: object


''')),
]

_REPORT = '''
import errno, os, sys
def said(name, outcome):
    print("INTEGRITY", name, outcome, flush=True)
def attempt(name, call):
    try:
        call()
    except OSError as exc:
        said(name, errno.errorcode.get(exc.errno, exc.errno))
        return
    except Exception as exc:
        said(name, type(exc).__name__)
        return
    said(name, "ALLOWED")
'''


def _system(body: str) -> str:
    return HONEST_WRONG + _REPORT + body


SYSTEM = [
    Seam("a_canary_outside_the_sandbox", None, _system('''
canary = "@CANARY@"
def write():
    with open(os.path.join(canary, "file"), "a") as handle:
        handle.write("changed")
attempt("write", write)
attempt("create", lambda: open(os.path.join(canary, "new"), "x").close())
attempt("rename", lambda: os.rename(os.path.join(canary, "file"), os.path.join(canary, "moved")))
attempt("unlink", lambda: os.unlink(os.path.join(canary, "file")))
attempt("chmod", lambda: os.chmod(os.path.join(canary, "file"), 0o600))
attempt("utime", lambda: os.utime(os.path.join(canary, "file"), (0, 0)))
attempt("symlink", lambda: os.symlink("/", os.path.join(canary, "link")))
attempt("mkdir", lambda: os.mkdir(os.path.join(canary, "dir")))
''')),
    # the working folder moved out first: a relative path is then judged as one in the scratch
    Seam("the_working_folder_moved_out", None, _system('''
canary = "@CANARY@"
def moved():
    os.chdir(canary)
    with open("file", "a") as handle:
        handle.write("changed")
attempt("chdir_then_write", moved)
attempt("fchdir", lambda: os.fchdir(os.open(canary, os.O_RDONLY)))
''')),
    Seam("shared_folders_for_a_channel", None, _system('''
for folder in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
    path = os.path.join(folder, "micrograph-channel-%d" % os.getpid())
    attempt("create_" + folder.strip("/").replace("/", "_"), lambda: open(path, "x").close())
    attempt("mkfifo_" + folder.strip("/").replace("/", "_"), lambda: os.mkfifo(path + ".fifo"))
''')),
    Seam("locks_on_shared_files", None, _system('''
import fcntl, struct
shared = open(os.__file__, "rb")
attempt("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt("lockf", lambda: fcntl.lockf(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt("setlk", lambda: fcntl.fcntl(shared, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)))
attempt("ofd_setlk", lambda: fcntl.fcntl(shared, 37, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)))
attempt("lease", lambda: fcntl.fcntl(shared, 1024, fcntl.F_RDLCK))
''')),
    Seam("other_processes", None, _system('''
import signal
attempt("signal_init", lambda: os.kill(1, 0))
attempt("stop_parent", lambda: os.kill(os.getppid(), signal.SIGSTOP))
attempt("group_signal", lambda: os.killpg(os.getpgid(os.getppid()), 0))
attempt("renice_init", lambda: os.setpriority(os.PRIO_PROCESS, 1, 19))
attempt("affinity_init", lambda: os.sched_setaffinity(1, {0}))
attempt("parent_environ", lambda: open("/proc/%d/environ" % os.getppid(), "rb").read())
attempt("parent_memory", lambda: open("/proc/%d/mem" % os.getppid(), "rb").read(1))
def others():
    found = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (os.getpid(), os.getppid(), 1)]
    if not found:
        raise PermissionError(errno.ESRCH, "none")
    for pid in found:
        open("/proc/%s/cmdline" % pid, "rb").read()
attempt("other_cmdlines", others)
''')),
    Seam("reads_for_the_answers", None, _system('''
attempt("solution", lambda: open("@SOLUTIONS@/ex01_graph.py").read())
attempt("tests", lambda: open("@TESTS@/ex01.py").read())
attempt("cache", lambda: [open(os.path.join("@CACHE@", n)).read() for n in os.listdir("@CACHE@")])
attempt("parent_cwd", lambda: os.listdir("/proc/%d/cwd" % os.getppid()))
def import_solutions():
    import solutions.ex01_graph
attempt("import_solutions", import_solutions)
import __main__, linecache
said("main_names", "ALLOWED" if [n for n in dir(__main__) if not n.startswith("__")
                                 and n not in ("sys", "main")] else "EABSENT")
said("cached_sources", "ALLOWED" if [k for k in linecache.cache if "ex01" in k and "graph" not in k]
     else "EABSENT")
''')),
    Seam("own_pipes_by_path", None, _system('''
record = b'{"kind": "test", "name": "backprop gives dy/dw and dy/dx", "obs": null, "error": null}\\n'
def write_all():
    wrote = False
    folder = os.path.join("/proc", "self", "f" + "d")  # by path, not by number
    try:
        names = os.listdir(folder)
    except OSError as exc:
        said("pipes_by_path", errno.errorcode.get(exc.errno, exc.errno))
        return
    for name in names:
        try:
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(record)
            wrote = True
        except OSError:
            pass
    said("pipes_by_path", "WROTE" if wrote else "EACCES")
write_all()
''')),
    # what a run could learn of, or signal to, a run beside it without a lock or a shared folder
    Seam("signals_between_runs", None, _system('''
import fcntl
attempt("probe_parent", lambda: os.kill(os.getppid(), 0))
attempt("parent_stat", lambda: open("/proc/%d/stat" % os.getppid()).read())
attempt("init_descriptors", lambda: os.listdir("/proc/1/fd"))
attempt("access_time", lambda: os.utime(os.__file__))
def notice():
    with open(os.__file__, "rb") as handle:  # a shared file: F_NOTIFY, DN_ACCESS | DN_MULTISHOT
        fcntl.fcntl(handle, 1026, 0x80000001)
attempt("file_notice", notice)
attempt("marker_attribute", lambda: os.setxattr("ex01_graph.py", "user.micrograph", b"1"))
''')),
    # calls Python makes without an audit event of their own, and a link made inside the scratch
    # folder that leads out: each refused by the sentinel (no errno), flagged as it is tried
    Seam("calls_without_an_audit_event_of_their_own", None, _system('''
attempt("mkfifo", lambda: os.mkfifo("fifo"))
attempt("mknod", lambda: os.mknod("node", 0o600 | 0o010000))
attempt("chroot", lambda: os.chroot("."))
attempt("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, 0, 1))
attempt("nice", lambda: os.nice(1))
attempt("affinity", lambda: os.sched_setaffinity(0, {0}))
attempt("link_out", lambda: os.symlink("../" * 8 + "etc", "out"))
''')),
    Seam("root_only_calls", None, _system('''
import resource, socket
said("uid", "ROOT" if os.geteuid() == 0 else "UNPRIVILEGED")
attempt("setuid_root", lambda: os.setuid(0))
attempt("setgroups", lambda: os.setgroups([0]))
attempt("nice_down", lambda: os.nice(-5))
attempt("raise_hard_limit", lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1 << 20, 1 << 20)))
attempt("sethostname", lambda: socket.sethostname("micrograph"))
attempt("mknod_device", lambda: os.mknod("dev", 0o600 | 0o020000, os.makedev(1, 3)))
attempt("chroot", lambda: os.chroot("."))
attempt("chown_library", lambda: os.chown(os.__file__, os.getuid(), os.getgid()))
attempt("xattr_library", lambda: os.setxattr(os.__file__, "trusted.micrograph", b"1"))
''')),
]

SEAMS = FORGERIES + SYSTEM


def code(seam: Seam, canary: str, solutions: str, tests: str, cache: str) -> str:
    """The attack's file, aimed at this machine's folders."""
    return (seam.code.replace("@CANARY@", canary).replace("@SOLUTIONS@", solutions)
            .replace("@TESTS@", tests).replace("@CACHE@", cache))
