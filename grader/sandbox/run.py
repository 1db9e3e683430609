"""Run one exercise's probes on one file in a sandboxed child, and collect what it reports.

The parent side of ``grader.sandbox.child``.  The child is ``python -I -S -u`` (without
``site``, as a batch's children start) in a fresh scratch folder holding only a copy of the
file, in its own session (so the whole process group can be killed), isolated as
``grader.sandbox.isolation`` decided for this machine, with a minimal environment.  The request
(``wire.Request``) goes in on stdin; records come back on a pipe created here; stdout and stderr
go to a third pipe that is read concurrently and cut to ``Limits.output``, so a flood costs the
child its time, never the grader its memory.  The wall clock (``Limits.wall_seconds``) is enforced
here (the child gives each probe a share of ``Limits.time`` in CPU seconds and of the clock, so
one looping or waiting function costs only the tests that call it: this kill is the backstop);
the other limits are applied in the child by
``child.confine`` before the submission is imported.

Who starts the child process is a parameter, ``spawn``: by default a plain ``subprocess.Popen``;
the course autograder passes ``Launcher.spawn`` (``grader.sandbox.launcher``), which also keeps
track of every child so that an interrupted batch can kill them at once.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

import grader
import micrograph

from grader.sandbox import isolation, pipes, scratch, uids, warm
from grader.sandbox.early import FirstDiagram, OnDiagram
from grader.sandbox.child import wire
from grader.sandbox.child.wire import Request
from grader.sandbox.records import ChildReport, parse_records
from grader.sandbox.text import Output
from grader.spec.limits import Limits

ROOTS = sorted({str(Path(p.__file__).resolve().parents[1]) for p in (grader, micrograph)})
"""The folders the child puts on ``sys.path``: the ones holding ``grader`` and ``micrograph``."""


class Spawn(Protocol):
    """Starts the child process: ``args`` in the folder ``scratch`` (which holds the copy of the
    submission), with the ``subprocess.Popen`` keyword ``options`` given."""

    def __call__(self, args: list[str], scratch: str, **options: Any) -> subprocess.Popen[bytes]:
        ...


def spawn_here(args: list[str], scratch: str, **options: Any) -> subprocess.Popen[bytes]:
    """The default ``Spawn``: ``subprocess.Popen`` in the scratch folder."""
    return subprocess.Popen(args, cwd=scratch, **options)


def run_child(
    *,
    submission: Path,
    module: str,
    tests_module: str,
    tests_source: str,
    tests: list[str],
    limits: Limits,
    diagram: bool,
    spawn: Spawn = spawn_here,
    early: OnDiagram | None = None,
) -> ChildReport:
    """Run ``tests`` (probe names) of one test module on ``submission`` within ``limits``,
    starting the child with ``spawn``; never raises for anything the submission does.
    ``early`` gets the diagram record as soon as it arrives (``grader.sandbox.early``); a
    child ``grader.sandbox.warm`` started before the mode was known is used when it fits."""
    mode = isolation.current()
    report = ChildReport(limits, isolation=mode.mode)
    with uids.child_uid() as uid:
        parent = isolation.scratch_parent(mode.mode)
        started = warm.take(mode.python, parent) if spawn is spawn_here else None
        folder = started.folder if started else tempfile.mkdtemp(prefix="grade-", dir=parent)
        try:
            target = report.ran_as = os.path.join(folder, f"{module}.py")
            try:
                scratch.copy_submission(submission, target)
            except OSError as exc:
                report.refused = f"cannot read {submission.name}: {exc.strerror or exc}"
                return report
            if uid is not None and isolation.drops_uid(mode.mode):
                for path in (folder, target):
                    os.chown(path, uid, uid)
            plan = isolation.plan(mode.mode, uid, folder, [os.path.basename(target)],
                                  limits.scratch, limits.scratch_entries)
            request: Request = {
                "fd": -1,
                "isolation": plan,
                "submission": target,
                "tests_module": tests_module,
                "tests_source": tests_source,
                "tests_code": wire.compiled(tests_module, tests_source),
                "tests": tests,
                "diagram": diagram,
                "limits": limits.to_json(),
            }
            if started:
                _talk(started, request, report, early)
            else:
                _spawn(mode.python, request, report, spawn, early)
        finally:
            if started:
                started.discard()  # killed already when it ran; unused, it must not linger
            scratch.remove_tree(folder)
            if uid is not None and isolation.drops_uid(mode.mode):
                scratch.sweep(uid)
    return report


def _talk(started: warm.Warm, request: Request, report: ChildReport,
          early: OnDiagram | None) -> None:
    """``_spawn``'s work for a child started early: its time starts with the request."""
    request["fd"] = started.fd
    assert started.proc.stdout is not None
    streams = pipes.Pipes({"channel": started.channel, "stdout": started.proc.stdout}, False)
    _converse(started.proc, request, streams, report, early)


def _converse(proc: subprocess.Popen[bytes], request: Request, streams: pipes.Pipes,
              report: ChildReport, early: OnDiagram | None) -> None:
    """Talk to a started child within its time limit, counted from now, and fill ``report``."""
    start = time.monotonic()
    plan = request["isolation"]
    watch = watching(plan["mode"], plan["uid"], plan["scratch"])
    _collect(proc, request, streams, start + report.limits.wall_seconds, report, watch, FirstDiagram(early))
    report.elapsed = time.monotonic() - start


def _spawn(python: str, request: Request, report: ChildReport, spawn: Spawn,
           early: OnDiagram | None) -> None:
    """Start the child in the scratch folder, talk to it, and fill ``report``.  The records
    come back on a pipe of their own, or, where none can be passed (``pipes.threaded``), on
    the child's stdout (``request["fd"]`` stays -1), its output then on stderr."""
    folder = request["isolation"]["scratch"]
    threads = pipes.threaded()
    read_fd, write_fd = (-1, -1) if threads else os.pipe()
    passed = {"stderr": subprocess.PIPE} if threads else {"stderr": subprocess.STDOUT,
                                                          "pass_fds": (write_fd,)}
    try:
        proc = spawn([python, "-I", "-S", "-u", "-c", warm.BOOT], folder, stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, env=warm.environment(folder), **passed,
                     **pipes.session_options())
        assert proc.stdout is not None
        if threads:
            assert proc.stderr is not None
            streams = {"channel": proc.stdout, "stdout": proc.stderr}
        else:
            request["fd"] = write_fd
            os.close(write_fd)
            write_fd = -1
            streams = {"channel": open(read_fd, "rb", buffering=0), "stdout": proc.stdout}
            read_fd = -1  # closed with the stream
        _converse(proc, request, pipes.Pipes(streams, threads), report, early)
    finally:
        for fd in (read_fd, write_fd):
            if fd >= 0:
                os.close(fd)


def watching(mode: isolation.Mode, uid: int | None, folder: str) -> scratch.Watch | None:
    """What the parent measures while a child of ``mode`` runs: nothing in ``namespaces``
    (its scratch is a capped tmpfs); else its scratch ``folder``, and, where it runs as a uid
    of its own that no Landlock keeps in that folder, what the uid holds in the shared
    writable folders (``/tmp``, ``/dev/shm``: memory), which it could fill otherwise."""
    if mode == isolation.NAMESPACES:
        return None
    shared = uid is not None and isolation.drops_uid(mode) and not isolation.keeps_writes_in_scratch(mode)
    return scratch.Watch(folder, uid if shared else None)


def _collect(
    proc: subprocess.Popen[bytes], request: Request, streams: pipes.Pipes, deadline: float,
    report: ChildReport, watch: scratch.Watch | None, first: FirstDiagram,
) -> None:
    """Send the request, read the channel and the output until both close or time runs out,
    then make sure the child (with its whole process group, where there are groups) is gone."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(json.dumps(request).encode())
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    received, output = bytearray(), Output(report.limits.output)

    def take(name: str, chunk: bytes) -> bool:
        if name != "channel":
            output.add(chunk)
        elif len(received) + len(chunk) > wire.MAX_CHANNEL_BYTES:
            report.tampered = f"sent more than {wire.MAX_CHANNEL_BYTES >> 20} MB"
        else:
            received.extend(chunk)
            first.feed(received)
        return report.tampered is None

    def check() -> bool:
        report.refused = scratch.over_budget(watch, report.limits)
        return report.refused is None

    try:
        ending = streams.read(deadline, take, check)
        report.timed_out = ending == "timed out"
        if ending == "closed":
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                report.timed_out = True
    finally:
        pipes.kill(proc)
        streams.close()
    report.stdout, report.stdout_lines = output.shown(report.limits.output)
    report.stdout_dropped = output.dropped
    parse_records(bytes(received), report, request["tests"])
    report.settle(proc.returncode)


