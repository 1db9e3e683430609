"""A batch's fork server (``grader.sandbox.forkserver``): each submission's child forked from it
is what ``subprocess.Popen`` would have started, grades alike, and the server ends with the batch."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from toycourse import GOOD, ToyCourse

from grader.sandbox.child import forkserver
from grader.sandbox.forkserver import Forked
from grader.sandbox.launcher import Launcher

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a fork server needs fork")


def _state_of_forked_child(tmp_path, env: dict[str, str]) -> dict:
    """Fork, make the child what the server makes it (``_become``) with a stdin pipe and a
    report pipe at chosen numbers, and read what the child then finds about itself."""
    stdin_read, stdin_write = os.pipe()
    report_read, report_write = os.pipe()
    stray = os.open(os.devnull, os.O_RDONLY)  # open in the server: the child must not keep it
    request = {"folder": str(tmp_path), "env": env, "fds": [0, 43]}
    pid = os.fork()
    if pid == 0:
        try:
            forkserver._become(request, [stdin_read, report_write])
            state = {"session": os.getsid(0) == os.getpid(), "cwd": os.getcwd(),
                     "env": dict(os.environ), "fds": sorted(int(f) for f in os.listdir("/proc/self/fd")),
                     "stdin": os.read(0, 5).decode(),
                     "null": [os.path.samestat(os.fstat(fd), os.stat(os.devnull)) for fd in (1, 2)]}
            os.write(43, json.dumps(state).encode())
        finally:
            os._exit(0)
    for fd in (stdin_read, report_write, stray):
        os.close(fd)
    os.write(stdin_write, b"hello")
    os.close(stdin_write)
    with os.fdopen(report_read, "rb") as report:
        data = report.read()
    os.waitpid(pid, 0)
    return json.loads(data)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads /proc/self/fd")
def test_a_forked_child_gets_what_popen_would_give(tmp_path) -> None:
    env = {"PATH": "/usr/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    state = _state_of_forked_child(tmp_path, env)
    assert state["session"] and state["cwd"] == str(tmp_path) and state["env"] == env
    assert state["stdin"] == "hello" and state["null"] == [True, True]
    # its stdin, /dev/null as stdout and stderr, the passed pipe, and the listing's own descriptor
    assert len(state["fds"]) == 5 and state["fds"][:3] == [0, 1, 2] and 43 in state["fds"]


def test_a_batch_forks_its_children_from_one_server_and_ends_it(toy: ToyCourse) -> None:
    launcher = Launcher(forking=True)
    started: list[object] = []

    def spawn(args: list[str], scratch: str, **options: object) -> subprocess.Popen[bytes]:
        proc = launcher.spawn(args, scratch, **options)
        started.append(proc)
        return proc

    course = dataclasses.replace(toy.course, spawn=spawn)
    results = []
    for student in ("first", "second"):
        jobs = [(course.load(i), toy.write(f"{student}/{m}.py", GOOD), None)
                for i, m in (("ex41", "ex41_fine"), ("ex42", "ex42_hostile"))]
        results += course.grade_many(jobs)
    assert [r.full_marks for r in results] == [True] * 4, [t.feedback for r in results for t in r.tests]
    assert len(started) == 2 and all(isinstance(p, Forked) for p in started)
    servers = {p.server for p in started}  # type: ignore[attr-defined]
    assert len(servers) == 1 and all(p.poll() is not None for p in started)  # type: ignore[attr-defined]
    launcher.close()
    assert next(iter(servers)).proc.poll() is not None


def test_other_programs_start_as_before(tmp_path) -> None:
    launcher = Launcher(forking=True)
    try:
        proc = launcher.spawn([sys.executable, "-c", "pass"], str(tmp_path), stdout=subprocess.DEVNULL)
        assert isinstance(proc, subprocess.Popen) and proc.wait(timeout=60) == 0
    finally:
        launcher.close()
