"""Run one exercise's probes on one file in a sandboxed child, and collect what it reports.

The parent side of ``grader.sandbox.child.main``.  The child is ``python -I -u`` (this interpreter) in a
fresh scratch directory holding only a copy of the file, in its own session (so the whole process
group can be killed), with a minimal environment.  The request goes in on stdin; records come
back on a pipe created here; stdout and stderr go to a third pipe that is read concurrently and
cut to ``STDOUT_LIMIT``, so a flood costs the child its time, never the grader its memory.  The
wall-clock limit is enforced here (the child also gives each probe a share of it, so one looping
function costs only the tests that call it: this kill is the backstop); memory, CPU, processes
and files are limited in the child by ``grader.sandbox.child.confine`` before the submission is imported.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grader
import micrograph
from grader.sandbox import isolation, scratch
from grader.sandbox.child import wire
from grader.sandbox.text import clean

STDOUT_LIMIT = 10_000
MESSAGE_LIMIT = 2_000  # an exception message shown as feedback
SCRATCH_BYTES = 32 << 20  # what one child may keep in its scratch folder
SCRATCH_ENTRIES = 2_048  # files and folders in it
_POLL = 0.2  # how often the scratch folder is measured when the kernel does not cap it
_MODE_LAYER = {isolation.NAMESPACES: "namespaces:", isolation.UID_SECCOMP: "uid:"}
DIAGRAM_SHARE = 0.3  # at most this share of the time limit goes to the diagram probe

_ROOTS = sorted({str(Path(p.__file__).resolve().parents[1]) for p in (grader, micrograph)})
_BOOT = f"import sys; sys.path[:0] = {_ROOTS!r}; from grader.sandbox.child.main import main; main()"


@dataclass
class ChildReport:
    """Everything one child run produced, as untrusted plain data plus how the child ended."""

    tests: dict[str, dict[str, Any]] = field(default_factory=dict)
    import_error: dict[str, Any] | None = None
    diagram: dict[str, Any] | None = None
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
    elapsed: float = 0.0
    time_limit: float = 0.0

    def why_silent(self) -> tuple[str, str]:
        """(status, reason) for a test that never reported back."""
        if self.refused:
            return "error", self.refused
        if self.tampered:
            return "error", f"the grader's channel was tampered with ({self.tampered})"
        if self.timed_out:
            return "timeout", f"timed out after {self.time_limit:g} s"
        code = self.returncode
        if code is not None and code < 0:
            sig = signal_name(-code)
            if sig == "SIGXCPU":
                return "timeout", f"used more than {math.ceil(self.time_limit)} s of CPU time"
            if sig == "SIGSEGV":
                return "error", "crashed (SIGSEGV), perhaps from recursion that never ends"
            return "error", f"was killed by {sig}"
        if not self.done:
            return "error", f"exited with status {code} before reporting"
        return "error", "did not report"


def signal_name(number: int) -> str:
    """``SIGKILL``, ``SIGRTMIN+3``, or ``signal 99``: never fails, whatever the number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = getattr(signal, "SIGRTMIN", 0), getattr(signal, "SIGRTMAX", -1)
    return f"SIGRTMIN+{number - low}" if low <= number <= high else f"signal {number}"


def _env(scratch: str) -> dict[str, str]:
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": scratch,
            "TMPDIR": scratch}


def _cut(data: bytes, dropped: int) -> str:
    text = clean(data.decode("utf-8", errors="replace"), STDOUT_LIMIT)
    return text + (f"\n[truncated, {dropped} more bytes]" if dropped else "")


def _copy(submission: Path, target: str) -> None:
    """Copy the submission into the scratch folder, refusing a symbolic link (O_NOFOLLOW)."""
    fd = os.open(submission, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as source, open(target, "wb") as copy:
        copy.write(source.read())


def run_child(
    *,
    submission: Path,
    module: str,
    tests_module: str,
    tests_source: str,
    tests: list[str],
    time_limit: float,
    memory_limit: int,
    diagram: bool,
) -> ChildReport:
    """Run ``tests`` (probe names) of one test module on ``submission``; never raises for
    anything the submission does."""
    mode = isolation.current()
    report = ChildReport(time_limit=time_limit, isolation=mode.mode)
    with isolation.child_uid() as uid:
        folder = tempfile.mkdtemp(prefix="grade-")
        try:
            target = os.path.join(folder, f"{module}.py")
            try:
                _copy(submission, target)
            except OSError as exc:
                report.refused = f"cannot read {submission.name}: {exc.strerror or exc}"
                return report
            if uid is not None and mode.mode == isolation.UID_SECCOMP:
                for path in (folder, target):
                    os.chown(path, uid, uid)
            plan = {"mode": mode.mode, "uid": uid, "scratch": folder,
                    "submission": os.path.basename(target), "scratch_bytes": SCRATCH_BYTES,
                    "scratch_inodes": SCRATCH_ENTRIES}
            request = {
                "fd": -1,
                "isolation": plan,
                "submission": target,
                "tests_module": tests_module,
                "tests_source": tests_source,
                "tests": tests,
                "diagram": diagram,
                "diagram_seconds": time_limit * DIAGRAM_SHARE,
                "time_limit": time_limit,  # each test's probe gets a share of what is left
                "memory": memory_limit,
                "cpu": math.ceil(time_limit) + 1,
            }
            _spawn(mode.python, request, time_limit, report)
        finally:
            scratch.remove_tree(folder)
            if uid is not None and mode.mode == isolation.UID_SECCOMP:
                scratch.sweep(uid)
    return report


def _spawn(python: str, request: dict[str, Any], time_limit: float,
           report: ChildReport) -> None:
    """Start the child in the scratch folder, talk to it, and fill ``report``."""
    folder = request["isolation"]["scratch"]
    read_fd, write_fd = os.pipe()
    try:
        start = time.monotonic()
        proc = subprocess.Popen(
            [python, "-I", "-u", "-c", _BOOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=folder,
            env=_env(folder),
            pass_fds=(write_fd,),
            start_new_session=True,
        )
        request["fd"] = write_fd
        os.close(write_fd)
        write_fd = -1
        watch = None if request["isolation"]["mode"] == isolation.NAMESPACES else folder
        _collect(proc, request, read_fd, start + time_limit, report, watch)
        report.elapsed = time.monotonic() - start
    finally:
        for fd in (read_fd, write_fd):
            if fd >= 0:
                os.close(fd)


def _over_budget(folder: str | None) -> str | None:
    if folder is None:
        return None
    used = scratch.usage(folder, SCRATCH_BYTES, SCRATCH_ENTRIES)
    if used.bytes > SCRATCH_BYTES or used.entries > SCRATCH_ENTRIES:
        return (f"filled its scratch folder past {SCRATCH_BYTES >> 20} MiB or "
                f"{SCRATCH_ENTRIES} files and folders")
    return None


def _collect(
    proc: subprocess.Popen[bytes], request: dict[str, Any], channel: int, deadline: float,
    report: ChildReport, watch: str | None,
) -> None:
    """Send the request, read the channel and the output until both close or time runs out,
    then make sure the whole process group is gone."""
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(request).encode())
        proc.stdin.close()
    except BrokenPipeError:
        pass
    received, output = bytearray(), bytearray()
    dropped, unfinished = 0, False
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ, "channel")
    selector.register(proc.stdout, selectors.EVENT_READ, "stdout")
    try:
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                report.timed_out = True
                break
            report.refused = _over_budget(watch)
            if report.refused:
                break
            for key, _ in selector.select(min(remaining, _POLL)):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data == "channel":
                    received += chunk
                else:
                    report.stdout_lines += chunk.count(b"\n")
                    unfinished = not chunk.endswith(b"\n")
                    room = max(0, STDOUT_LIMIT - len(output))
                    output += chunk[:room]
                    dropped += len(chunk) - min(room, len(chunk))
            if len(received) > wire.MAX_CHANNEL_BYTES:
                report.tampered = f"sent more than {wire.MAX_CHANNEL_BYTES >> 20} MB"
                break
        if not report.timed_out and not report.tampered:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                report.timed_out = True
    finally:
        selector.close()
        _kill_group(proc)
        proc.stdout.close()
    report.returncode = proc.returncode
    report.stdout_lines += 1 if output and unfinished else 0
    report.stdout_dropped = dropped
    report.stdout = _cut(bytes(output), dropped)
    _parse(bytes(received), report, request["tests"])


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group (its session), then reap the child."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _clean_error(error: dict[str, Any] | None) -> dict[str, Any] | None:
    """An error record with its text made safe to show (see ``grader.sandbox.text``)."""
    if error is None:
        return None
    function = error["function"]
    return {"type": clean(error["type"], wire.MAX_NAME),
            "message": clean(error["message"], MESSAGE_LIMIT),
            "function": None if function is None else clean(function, wire.MAX_NAME),
            "line": error["line"]}


def _parse(data: bytes, report: ChildReport, tests: list[str]) -> None:
    """Sort the records into the report.  They must follow the protocol's order (confined or
    refused, import, diagram?, the tests in the order asked, done); a malformed, repeated or
    misplaced record marks the channel as tampered with, which forfeits every test of the run.
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
            prefix = _MODE_LAYER.get(report.isolation)
            if prefix and not any(x.startswith(prefix) for x in report.layers):
                report.refused = f"the sandbox did not apply {report.isolation}"
        elif kind == "import" and stage == "confined":
            report.import_error = record["error"]
            stage = "imported" if report.import_error is None else "failed"
        elif kind == "diagram" and stage == "imported" and report.diagram is None:
            report.diagram = record
        elif kind == "test" and stage == "imported" and record["name"] == next(asked, None):
            report.tests[record["name"]] = record
        elif kind == "done" and stage in ("imported", "failed"):
            report.done, stage = True, "done"
        else:
            report.tampered = report.tampered or f"unexpected {kind} record"
