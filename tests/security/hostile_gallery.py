"""The hostile gallery: one student per attack, in a class with honest classmates.

Each case is an entry of ``grade batch``: most attack from their ``ex01`` file (which has no
answer, so it must score 0 whatever it does) and hand in a correct ``ex02``; the link and
name cases are entries whose shape is the attack.  ``test_hostile_gallery.py`` grades the whole class
once per isolation mode and checks each case against its five promises.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions"
EX01, EX02 = SOLUTIONS / "ex01_graph.py", SOLUTIONS / "ex02_leaves.py"
HONEST = ("honest_a", "honest_b")
MARK = f"mg-gallery-{os.getpid()}"  # what an attack tries to leave outside its scratch is
SYSV_KEYS = (0x4D47, 0x4D48, 0x4D49)  # named so, or keyed so

PRELUDE = f'''
import ctypes, errno, os, resource, signal, socket, sys, time
ME = os.getpid()
MARK = {MARK!r}
def _pids():
    try:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return list(range(1, 32768))
def _try(f, *args):
    try:
        return f(*args)
    except BaseException as exc:
        return exc
def _others():
    return [p for p in _pids() if p != ME]
def _wire(data):
    import stat
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, data)
        except OSError:
            pass
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
'''


@dataclass(frozen=True)
class Case:
    """``code`` is the attacker's ex01 file; ``build`` (instead) makes the whole entry."""

    name: str
    kind: str  # the class of attack
    code: str = ""
    build: Callable[[Path], None] | None = None
    whole_entry_refused: bool = False  # the entry as a whole scores 0 (a linked entry)
    student: str = ""  # its row in grades.csv, when not the case's name

    @property
    def row(self) -> str:
        return self.student or self.name


def _code(name: str, kind: str, body: str) -> Case:
    return Case(name, kind, PRELUDE + body)


CLASSMATES = [
    _code("kill_every_pid", "classmates", "for p in _others(): _try(os.kill, p, signal.SIGKILL)"),
    _code("stop_every_pid", "classmates", "for p in _others(): _try(os.kill, p, signal.SIGSTOP)"),
    _code("kill_minus_one", "classmates", "_try(os.kill, -1, signal.SIGKILL)"),
    _code("killpg_every_group", "classmates",
          "for p in _others(): _try(os.killpg, p, signal.SIGKILL)"),
    _code("prlimit_cpu_of_everyone", "classmates",
          "for p in _others(): _try(resource.prlimit, p, resource.RLIMIT_CPU, (0, 0))"),
    _code("prlimit_memory_of_everyone", "classmates",
          "for p in _others(): _try(resource.prlimit, p, resource.RLIMIT_AS, (1 << 20, 1 << 20))"),
    _code("realtime_signals_to_everyone", "classmates",
          "for p in _others(): _try(os.kill, p, signal.SIGRTMIN + 3)"),
    _code("renice_and_pin_everyone", "classmates",
          "for p in _others():\n    _try(os.setpriority, os.PRIO_PROCESS, p, 19)\n"
          "    _try(os.sched_setaffinity, p, {0})"),
    _code("ptrace_everyone", "classmates",
          "for p in _others(): libc.ptrace(16, p, None, None)\n"
          "for p in _others(): _try(lambda: open(f'/proc/{p}/mem', 'r+b').write(b'x'))"),
    _code("overwrite_other_scratch_folders", "classmates",
          "import glob\n"
          "for f in glob.glob('/tmp/grade-*/*.py') + glob.glob('/proc/*/cwd/*.py'):\n"
          "    _try(lambda: open(f, 'w').write('raise SystemExit(0)'))"),
    _code("write_into_other_pipes", "classmates",
          "import glob\n"
          "for f in glob.glob('/proc/*/fd/*'):\n"
          "    _try(lambda: open(f, 'wb').write(b'{\"kind\":\"done\"}\\n'))"),
]

HIDDEN = [
    _code("sysv_shared_memory_channel", "hidden tests",
          "seg = libc.shmget(0x4D47, 1 << 20, 0o1666)\n"
          "if seg >= 0:\n"
          "    libc.shmat.restype = ctypes.c_void_p\n"
          "    at = libc.shmat(seg, None, 0)\n"
          "    ctypes.memmove(at, b'hidden probe text', 17)"),
    _code("sysv_message_queue_channel", "hidden tests",
          "q = libc.msgget(0x4D48, 0o1666)\n"
          "buf = ctypes.create_string_buffer(b'\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00leak')\n"
          "if q >= 0: libc.msgsnd(q, buf, 4, 0)"),
    _code("sysv_semaphore", "hidden tests", "libc.semget(0x4D49, 4, 0o1666)"),
    _code("udp_loopback_send", "hidden tests",
          "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
          "s.sendto(b'hidden probe text', ('127.0.0.1', 47913))"),
    _code("udp_loopback_listen", "hidden tests",
          "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
          "s.bind(('127.0.0.1', 47914)); s.settimeout(0.3); print(s.recv(100))"),
    _code("tcp_to_localhost", "hidden tests",
          "for port in (22, 80, 5432, 8000):\n"
          "    _try(socket.create_connection, ('127.0.0.1', port), 0.2)"),
    _code("unix_socket_at_a_path", "hidden tests",
          "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
          "_try(s.bind, f'/tmp/{MARK}.sock'); s.bind('leak.sock')"),
    _code("abstract_unix_socket", "hidden tests",
          "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
          "s.bind('\\0' + MARK)"),
    _code("posix_message_queue", "hidden tests",
          "rt = ctypes.CDLL('librt.so.1', use_errno=True)\n"
          "q = rt.mq_open(('/' + MARK).encode(), os.O_CREAT | os.O_WRONLY, 0o666, None)\n"
          "if q >= 0: rt.mq_send(q, b'leak', 4, 0)"),
    _code("files_in_shared_folders", "hidden tests",
          "for d in ('/tmp', '/var/tmp', '/dev/shm'):\n"
          "    _try(lambda: open(f'{d}/{MARK}.txt', 'w').write('hidden probe text'))\n"
          "    _try(os.mkfifo, f'{d}/{MARK}.fifo')"),
    _code("session_keyring", "hidden tests",
          "libc.syscall(248, b'user', MARK.encode(), b'leak', 4, -3)"),
    _code("read_the_tests_and_solutions_from_disk", "hidden tests",
          "import glob\n"
          f"for f in glob.glob({str(REPO)!r} + '/grader/exercises/*.py') + "
          f"glob.glob({str(SOLUTIONS)!r} + '/*.py'):\n"
          "    print(_try(lambda: open(f).read()[:50]))\n"
          f"exec(open({str(EX01)!r}).read())"),
    _code("solution_through_proc_self_cwd", "hidden tests",
          "exec(open('/proc/self/cwd/solutions/ex01_graph.py').read())"),
]

GRADER = [
    _code("prlimit_parent_file_size", "the grader",
          "for p in [os.getppid(), *_others()]:\n"
          "    _try(resource.prlimit, p, resource.RLIMIT_FSIZE, (0, 0))"),
    _code("prlimit_parent_open_files", "the grader",
          "for p in [os.getppid(), *_others()]:\n"
          "    _try(resource.prlimit, p, resource.RLIMIT_NOFILE, (3, 3))"),
    _code("kill_parent", "the grader", "_try(os.kill, os.getppid(), signal.SIGKILL)"),
    _code("stop_parent", "the grader", "_try(os.kill, os.getppid(), signal.SIGSTOP)"),
    _code("terminate_parent_group", "the grader",
          "_try(os.killpg, _try(os.getpgid, os.getppid()), signal.SIGTERM)"),
    _code("read_parent_memory", "the grader",
          "print(_try(lambda: open(f'/proc/{os.getppid()}/environ').read()[:80]))"),
]

MEMORY_DISK = [
    _code("sysv_segment_past_the_memory_cap", "memory and disk",
          "seg = libc.shmget(0, 3 << 30, 0o1600)\n"
          "libc.shmat.restype = ctypes.c_void_p\n"
          "at = libc.shmat(seg, None, 0) if seg >= 0 else None\n"
          "if at and at != ctypes.c_void_p(-1).value: ctypes.memset(at, 1, 1 << 30)"),
    _code("fill_scratch_with_big_files", "memory and disk",
          "i = 0\n"
          "while i < 200:\n"
          "    open(f'big{i}', 'wb').write(b'x' * (15 << 20)); i += 1"),
    _code("fill_scratch_with_many_files", "memory and disk",
          "for i in range(200_000): open(f'f{i}', 'w').close()"),
    _code("fill_the_temp_folder", "memory and disk",
          "for i in range(50): _try(lambda: open(f'/tmp/{MARK}-{i}', 'wb').write(b'x' * (15 << 20)))"),
    _code("folders_nested_deep", "memory and disk",
          "for i in range(100_000):\n    os.mkdir('d'); os.chdir('d')"),
    _code("memfd_past_the_memory_cap", "memory and disk",
          "fd = os.memfd_create('x')\n"
          "for i in range(200): os.write(fd, b'x' * (15 << 20))"),
]


def _entry_with(link_target: str) -> Callable[[Path], None]:
    def build(entry: Path) -> None:
        entry.mkdir()
        (entry / "ex01_graph.py").symlink_to(link_target)
        (entry / "ex02_leaves.py").write_bytes(EX02.read_bytes())
    return build


def _linked_folder(entry: Path) -> None:
    entry.mkdir()
    (entry / "work").symlink_to(SOLUTIONS, target_is_directory=True)
    (entry / "ex02_leaves.py").write_bytes(EX02.read_bytes())


def _linked_entry(entry: Path) -> None:
    real = entry.parent.parent / f"{entry.name}-target"
    real.mkdir(exist_ok=True)
    for source in (EX01, EX02):
        (real / source.name).write_bytes(source.read_bytes())
    entry.symlink_to(real, target_is_directory=True)


def _zip_with_link(entry: Path) -> None:
    with zipfile.ZipFile(entry.with_suffix(".zip"), "w") as archive:
        info = zipfile.ZipInfo("ex01_graph.py")
        info.external_attr = (0o120777 << 16)
        archive.writestr(info, str(EX01))
        archive.writestr("ex02_leaves.py", EX02.read_bytes())


def _linked_py_entry(entry: Path) -> None:
    Path(str(entry) + "_ex01.py").symlink_to(EX01)


LINKS = [
    Case("link_to_the_solution", "links", build=_entry_with(str(EX01))),
    Case("link_relative_to_the_solution", "links",
         build=_entry_with(os.path.relpath(EX01, "/tmp"))),
    Case("link_through_proc_self_cwd", "links",
         build=_entry_with("/proc/self/cwd/solutions/ex01_graph.py")),
    Case("linked_folder_holding_solutions", "links", build=_linked_folder),
    Case("entry_is_a_link", "links", build=_linked_entry, whole_entry_refused=True),
    Case("zip_member_is_a_link", "links", build=lambda e: _zip_with_link(e)),
    Case("single_py_entry_is_a_link", "links", build=_linked_py_entry,
         whole_entry_refused=True, student="single_py_entry_is_a_link_ex01"),
]

PARENT = [
    _code("wire_record_missing_keys", "parent trusts child data",
          "_wire(b'{\"kind\":\"test\"}\\n{\"kind\":\"import\"}\\n')"),
    _code("wire_record_extra_keys", "parent trusts child data",
          "_wire(b'{\"kind\":\"import\",\"error\":null,\"score\":99}\\n')"),
    _code("wire_forged_passes", "parent trusts child data",
          "names = ['backprop gives dy/dw and dy/dx', 'backprop on varied inputs']\n"
          "_wire(b'{\"kind\":\"import\",\"error\":null}\\n' + b''.join(\n"
          "    b'{\"kind\":\"test\",\"name\":\"%s\",\"obs\":null,\"error\":null}\\n' % n.encode()\n"
          "    for n in names) + b'{\"kind\":\"done\"}\\n')\n"
          "os._exit(0)"),
    _code("wire_error_with_a_huge_line_number", "parent trusts child data",
          "_wire(b'{\"kind\":\"import\",\"error\":{\"type\":\"X\",\"message\":\"m\",'\n"
          "      b'\"function\":null,\"line\":1e400}}\\n')"),
    _code("realtime_signal_on_itself", "parent trusts child data",
          "os.kill(ME, signal.SIGRTMIN + 7); os.kill(ME, 64)"),
    _code("fifty_megabyte_exception", "parent trusts child data",
          "raise RuntimeError('x' * 50_000_000)"),
    _code("fifty_megabyte_print", "parent trusts child data",
          "sys.stdout.write('y' * 50_000_000)"),
    _code("forged_diagram_at_schema_limits", "parent trusts child data",
          "def build_graph(w, x):\n"
          "    nodes = [{'id': f'n{i}', 'kind': 'value', 'role': 'leaf', 'name': 'v' * 200,\n"
          "              'data': 1.0, 'grad': None} for i in range(20_000)]\n"
          "    edges = [{'from': f'n{i % 20_000}', 'to': f'n{(i * 7 + 1) % 20_000}'}\n"
          "             for i in range(100_000)]\n"
          "    import json\n"
          "    graph = {'format': 1, 'nodes': nodes, 'edges': edges, 'omitted': 0}\n"
          "    _wire(json.dumps({'kind': 'diagram', 'graph': graph, 'error': None}).encode()\n"
          "          + b'\\n')\n"
          "    os._exit(0)\n"
          "def backprop(w, x):\n"
          "    return build_graph(w, x)"),
    _code("terminal_control_sequences", "parent trusts child data",
          "print('\\x1b[2J\\x1b]0;pwned\\x07\\x1b]52;c;ZXZpbA==\\x07\\x9b31m')\n"
          "raise ValueError('\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07 cleared')"),
    _code("lone_surrogates", "parent trusts child data",
          "sys.stdout.buffer.write(b'\\xed\\xa0\\x80 \\xff')\n"
          "raise ValueError('\\ud800 lone')"),
    _code("exception_type_with_a_huge_name", "parent trusts child data",
          "raise type('E' * 5000 + '\\x1b[2J', (Exception,), {})('boom')"),
]


def _honest_named(name: str) -> Case:
    def build(entry: Path) -> None:
        entry = entry.parent / name
        entry.mkdir()
        for source in (EX01, EX02):
            (entry / source.name).write_bytes(source.read_bytes())
    label = name.encode("unicode_escape").decode().replace("\\", "")
    return Case(f"name_{label}", "batch names", build=build, student=name)


def _py_named(name: str) -> Case:
    def build(entry: Path) -> None:
        (entry.parent / name).write_bytes(EX01.read_bytes())
    return Case("name_" + name.replace(".", "_"), "batch names", build=build,
                student=name.removesuffix(".py"))


NAMES = [
    _py_named("grades.csv.py"),
    _honest_named("report.html"),
    _honest_named("students"),
    _honest_named("Jos\u00e9"),  # NFC
    _honest_named("Jose\u0301"),  # NFD: the same name once normalised
]

CASES = CLASSMATES + HIDDEN + GRADER + MEMORY_DISK + LINKS + PARENT + NAMES


def build_class(folder: Path, cases: list[Case] = CASES) -> None:
    """The submissions folder: the honest classmates, then one entry per case of ``cases``."""
    folder.mkdir(parents=True)
    for name in HONEST:
        entry = folder / name
        entry.mkdir()
        for source in (EX01, EX02):
            (entry / source.name).write_bytes(source.read_bytes())
    for case in cases:
        entry = folder / case.name
        if case.build is not None:
            case.build(entry)
            continue
        entry.mkdir()
        (entry / "ex01_graph.py").write_text(case.code)
        (entry / "ex02_leaves.py").write_bytes(EX02.read_bytes())
