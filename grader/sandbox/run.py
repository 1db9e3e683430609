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
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import grader
import micrograph

from grader.sandbox import isolation, pipes, scratch, uids, warm
from grader.sandbox.early import FirstDiagram, OnDiagram
from grader.sandbox.child import wire
from grader.sandbox.child.wire import TOUCHES, DiagramRecord, ErrorRecord, ProbeRecord, Request, Touch
from grader.sandbox.reach import Reach
from grader.sandbox.text import ShownLines, clean, without_graders_frames
from grader.spec.limits import Limits, size

MESSAGE_LIMIT = 2_000  # an exception message shown as feedback

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


@dataclass
class ChildReport:
    """Everything one child run produced, as untrusted plain data plus how the child ended.

    The records passed ``wire.decode`` and the protocol's order; what they mean, and why a test
    that never reported stayed silent, is for ``grader.judge`` to say.
    """

    limits: Limits
    tests: dict[str, ProbeRecord] = field(default_factory=dict)
    import_error: ErrorRecord | None = None
    diagram: DiagramRecord | None = None
    layers: list[str] = field(default_factory=list)
    isolation: str = ""
    refused: str | None = None  # the child did not run the submission: why
    done: bool = False
    stdout: str = ""
    stdout_lines: int = 0  # lines printed in all, counted before the cap
    stdout_dropped: int = 0  # bytes past the cap, not kept
    returncode: int | None = None
    timed_out: bool = False
    tampered: str | None = None
    touched: list[Touch] = field(default_factory=list)  # what the child's sentinel blocked
    reached: list[Reach] = field(default_factory=list)  # what the source names (``reach``)
    elapsed: float = 0.0
    worker_code: int | None = None  # how the process that ran the submission ended, if said
    ran_as: str = ""  # the scratch copy's path the child imported: what it printed names the file so
    imported: bool = False  # the child said how importing the submission went (it got that far)

    def settle(self, code: int | None) -> None:
        """The child's exit status: ``code`` (the process the grader started or waited for),
        unless that process ended normally after saying how its worker ended."""
        self.returncode = self.worker_code if code == 0 and self.worker_code is not None else code

    @property
    def signal(self) -> str | None:
        """The name of the signal that ended the child ("SIGKILL"), if one did."""
        code = self.returncode
        return None if code is None or code >= 0 else signal_name(-code)


def signal_name(number: int) -> str:
    """``SIGKILL``, ``SIGRTMIN+3``, or ``signal 99``: never fails, whatever the number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = getattr(signal, "SIGRTMIN", 0), getattr(signal, "SIGRTMAX", -1)
    return f"SIGRTMIN+{number - low}" if low <= number <= high else f"signal {number}"


@dataclass
class _Output:
    """The child's stdout and stderr as read: the first ``limit`` bytes kept, the rest counted."""

    limit: int
    kept: bytearray = field(default_factory=bytearray)
    dropped: int = 0
    lines: ShownLines = field(default_factory=ShownLines)  # counted before the cap

    def add(self, chunk: bytes) -> None:
        self.lines.feed(chunk)
        room = max(0, self.limit - len(self.kept))
        self.kept += chunk[:room]
        self.dropped += len(chunk) - min(room, len(chunk))


def _printed(output: _Output, limit: int) -> tuple[str, int]:
    """What the child printed as the student is shown it (without the grader's stack frames, made
    safe, cut), and how many lines that is, past the cap too (``ShownLines``)."""
    text = clean(without_graders_frames(output.kept.decode("utf-8", errors="replace")), limit)
    return text + (f"\n[truncated, {output.dropped} more bytes]" if output.dropped else ""), output.lines.total()


def _copy(submission: Path, target: str) -> None:
    """Copy the submission into the scratch folder, refusing a symbolic link (O_NOFOLLOW)."""
    flags = sum(getattr(os, f, 0) for f in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"))
    fd = os.open(submission, os.O_RDONLY | flags)
    with os.fdopen(fd, "rb") as source, open(target, "wb") as copy:
        copy.write(source.read())


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
                _copy(submission, target)
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


def _over_budget(watch: scratch.Watch | None, limits: Limits) -> str | None:
    if watch is None:
        return None
    used = scratch.usage(watch.folder, limits.scratch, limits.scratch_entries)
    where = "its scratch folder"
    if watch.writer is not None:
        shared = scratch.held(watch.writer, limits.scratch - used.bytes, limits.scratch_entries - used.entries)
        used = scratch.Usage(used.bytes + shared.bytes, used.entries + shared.entries)
        where = "its scratch folder and the shared writable folders (/tmp, /dev/shm...)"
    if used.bytes > limits.scratch or used.entries > limits.scratch_entries:
        return f"filled {where} past {size(limits.scratch)} or {limits.scratch_entries} files and folders"
    return None


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
    received, output = bytearray(), _Output(report.limits.output)

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
        report.refused = _over_budget(watch, report.limits)
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
    report.stdout, report.stdout_lines = _printed(output, report.limits.output)
    report.stdout_dropped = output.dropped
    _parse(bytes(received), report, request["tests"])
    report.settle(proc.returncode)


def _required_layers(mode: isolation.Mode) -> tuple[str, ...]:
    """The layers a child of ``mode`` must claim, by prefix: its namespaces, or its own uid
    wherever it drops to one (``uid+seccomp``, and ``limits only`` as root)."""
    if mode == isolation.NAMESPACES:
        return ("namespaces:", "uid:")
    return ("uid:",) if isolation.drops_uid(mode) else ()


def _clean_error(error: dict[str, Any] | None) -> dict[str, Any] | None:
    """An error record with its text made safe to show (see ``grader.sandbox.text``)."""
    if error is None:
        return None
    function, caller = error["function"], error["caller"]
    return {"type": clean(error["type"], wire.MAX_NAME),
            "message": clean(error["message"], MESSAGE_LIMIT),
            "function": None if function is None else clean(function, wire.MAX_NAME),
            "caller": None if caller is None else clean(caller, wire.MAX_NAME),
            "line": error["line"],
            "step": None if error["step"] is None else clean(error["step"], wire.MAX_NAME)}


def _parse(data: bytes, report: ChildReport, tests: list[str]) -> None:
    """Sort the records into the report.  They must follow the protocol's order (confined or
    refused, import, diagram?, the tests in the order asked, done, then how the worker ended);
    a malformed, repeated or misplaced record, or the relay's ``tampered``, marks the channel
    as tampered with, which forfeits every test of the run.
    A child that does not claim the isolation the grader announced ran nothing it counts."""
    stage, asked = "start", iter(tests)
    for line in data.splitlines():
        try:
            record = wire.decode(line)
        except wire.WireError as exc:
            report.tampered = report.tampered or f"malformed record: {exc}"
            continue
        kind = record["kind"]
        if "error" in record:
            record["error"] = _clean_error(record["error"])
        if kind == "refused" and stage == "start":
            report.refused = ("the sandbox could not be set up: "
                              f"{clean(record['reason'], wire.MAX_NAME)}")
            stage = "done"
        elif kind == "confined" and stage == "start":
            report.layers = [clean(x, wire.MAX_NAME) for x in record["layers"]]
            stage = "confined"
            for prefix in _required_layers(report.isolation):
                if not any(x.startswith(prefix) for x in report.layers):
                    report.refused = f"the sandbox did not apply {report.isolation}"
        elif kind == "import" and stage == "confined":
            report.import_error, report.imported = record["error"], True
            stage = "imported" if report.import_error is None else "failed"
        elif kind == "diagram" and stage == "imported" and report.diagram is None:
            report.diagram = record
        elif kind == "test" and stage == "imported" and record["name"] == next(asked, None):
            report.tests[record["name"]] = record
        elif kind == "done" and stage in ("imported", "failed"):
            report.done, stage = True, "done"
        elif kind == "tampered" and stage not in ("start", "ended"):
            report.tampered = report.tampered or clean(record["reason"], wire.MAX_NAME)
            stage = "done"
        elif kind == "flagged" and stage not in ("start", "ended"):
            report.touched += [TOUCHES[t] for t in record["touched"] if TOUCHES[t] not in report.touched]
        elif kind == "ended" and stage not in ("start", "ended"):
            report.worker_code, stage = record["code"], "ended"
        else:
            report.tampered = report.tampered or f"unexpected {kind} record"
