"""On Gradescope the public run (whose output students see at once) and the full run (which
holds the hidden probes) are two children running side by side.  A submission that, in the
full run, hands every hidden test's text to every channel it can open (the texts are written
into it here: the test module is out of its reach; it knows the full run by the hidden
point ex01's hidden test passes to build_graph), and, in every run, prints whatever arrives,
must show students nothing hidden.  It uses ``ctypes``, which the child's sentinel blocks, so
it runs without (``GRADE_SENTINEL=off``), to reach the layers beneath: System V IPC, UDP on loopback,
UNIX sockets at a path or abstract, POSIX message queues, keyrings and files in the shared
folders are all closed.  Once per isolation mode (``uid+seccomp`` simulates a kernel without
namespaces, and needs root)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from coursekit import hidden_texts, solution, visible

from grader.sandbox import isolation

# The two modes' runs use the same channels (port, socket paths, keys): one after the other.
pytestmark = pytest.mark.xdist_group("hidden-leaks")

LEAKER = r'''
import ctypes, os, socket, sys, time
SECRET = @SECRET@
HIDDEN_POINT = (-1.0, 2.5)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
MARK = "mg-leak"
def _try(f, *a):
    try:
        return f(*a)
    except BaseException as exc:
        return None
def send(data):
    seg = libc.shmget(0x4D4C, 1 << 16, 0o1666)
    if seg >= 0:
        libc.shmat.restype = ctypes.c_void_p
        at = libc.shmat(seg, None, 0)
        _try(ctypes.memmove, at, data, len(data))
    udp = _try(socket.socket, socket.AF_INET, socket.SOCK_DGRAM)
    if udp: _try(udp.sendto, data[:1000], ("127.0.0.1", 47920))
    for address in ("/tmp/" + MARK + ".sock", "\0" + MARK):
        unix = _try(socket.socket, socket.AF_UNIX, socket.SOCK_DGRAM)
        if unix: _try(unix.sendto, data[:1000], address)
    for folder in ("/tmp", "/dev/shm", "/var/tmp"):
        _try(lambda: open(folder + "/" + MARK + ".txt", "wb").write(data))
    libc.syscall(248, b"user", MARK.encode(), data, len(data), -3)
def receive():
    got = []
    udp = _try(socket.socket, socket.AF_INET, socket.SOCK_DGRAM)
    if udp and _try(udp.bind, ("127.0.0.1", 47920)) is None: udp.setblocking(False)
    socks = [udp]
    for address in ("/tmp/" + MARK + ".sock", "\0" + MARK):
        unix = _try(socket.socket, socket.AF_UNIX, socket.SOCK_DGRAM)
        if unix and _try(unix.bind, address) is None:
            unix.setblocking(False); socks.append(unix)
    end = time.time() + 2.0
    while time.time() < end:
        for s in socks:
            if s: got.append(_try(s.recv, 4000))
        seg = libc.shmget(0x4D4C, 1 << 16, 0)
        if seg >= 0:
            libc.shmat.restype = ctypes.c_void_p
            got.append(_try(ctypes.string_at, libc.shmat(seg, None, 0), 200))
        for folder in ("/tmp", "/dev/shm", "/var/tmp"):
            got.append(_try(lambda: open(folder + "/" + MARK + ".txt", "rb").read()))
        buf = ctypes.create_string_buffer(4000)
        key = libc.syscall(249, b"user", MARK.encode(), None, 0)
        if key > 0:
            libc.syscall(250, 11, key, buf, 4000)
            got.append(buf.raw)
        time.sleep(0.05)
    print("RECEIVED", [g for g in got if g])
_build_graph = build_graph
def build_graph(w, x):
    if (w, x) == HIDDEN_POINT:  # only the full run's hidden test asks for it
        send(SECRET)
    return _build_graph(w, x)
if not os.environ.get(MARK):  # once a process: the grader runs the file again for its state probes
    os.environ[MARK] = "listened"
    receive()
'''


@pytest.mark.parametrize("mode", ["namespaces", "uid+seccomp"])
def test_the_public_run_receives_nothing_from_the_full_run(standin, mode: str) -> None:
    best = isolation.available()
    if isolation.ORDER.index(best.mode) < isolation.ORDER.index(mode):
        pytest.skip(f"this machine gives {best.mode} ({best.reason})")
    if mode == isolation.UID_SECCOMP and os.geteuid() != 0:
        pytest.skip("uid+seccomp needs root (a uid of its own for each child)")
    if isolation.refusal(mode) is not None:  # uid+seccomp with a Python under a private home
        pytest.skip(f"{mode} fails here: {isolation.refusal(mode)}")

    def setup(submission: Path, root: Path) -> None:
        secret = "|".join(hidden_texts("ex01")).encode()[:4000]
        (submission / "ex01_graph.py").write_text(
            solution("ex01").read_text() + LEAKER.replace("@SECRET@", repr(secret)))

    data = standin(setup, GRADE_ISOLATION=mode, GRADE_SENTINEL="off")
    shown = visible(data)
    assert "RECEIVED []" in shown  # the public run listened and got nothing
    for text in hidden_texts("ex01"):
        assert text not in shown
    assert not [n for folder in ("/tmp", "/dev/shm", "/var/tmp") for n in os.listdir(folder)
                if "mg-leak" in n]
