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
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grader
import micrograph
from grader.sandbox.child import wire

STDOUT_LIMIT = 10_000
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
    done: bool = False
    stdout: str = ""
    returncode: int | None = None
    timed_out: bool = False
    tampered: str | None = None
    elapsed: float = 0.0
    time_limit: float = 0.0

    def why_silent(self) -> tuple[str, str]:
        """(status, reason) for a test that never reported back."""
        if self.tampered:
            return "error", f"the grader's channel was tampered with ({self.tampered})"
        if self.timed_out:
            return "timeout", f"timed out after {self.time_limit:g} s"
        code = self.returncode
        if code is not None and code < 0:
            sig = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            if sig == "SIGXCPU":
                return "timeout", f"used more than {math.ceil(self.time_limit)} s of CPU time"
            if sig == "SIGSEGV":
                return "error", "crashed (SIGSEGV), perhaps from recursion that never ends"
            return "error", f"was killed by {sig}"
        if not self.done:
            return "error", f"exited with status {code} before reporting"
        return "error", "did not report"


def _env(scratch: str) -> dict[str, str]:
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": scratch,
            "TMPDIR": scratch}


def _cut(data: bytes, dropped: int) -> str:
    text = data.decode("utf-8", errors="replace")
    return text + (f"\n[... {dropped} more bytes cut]" if dropped else "")


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
    report = ChildReport(time_limit=time_limit)
    scratch = tempfile.mkdtemp(prefix="grade-")
    read_fd, write_fd = os.pipe()
    try:
        target = os.path.join(scratch, f"{module}.py")
        shutil.copyfile(submission, target)
        start = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-I", "-u", "-c", _BOOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=scratch,
            env=_env(scratch),
            pass_fds=(write_fd,),
            start_new_session=True,
        )
        child_fd, write_fd = write_fd, -1
        os.close(child_fd)
        request = {
            "fd": child_fd,
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
        _collect(proc, request, read_fd, start + time_limit, report)
        report.elapsed = time.monotonic() - start
    finally:
        for fd in (read_fd, write_fd):
            if fd >= 0:
                os.close(fd)
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def _collect(
    proc: subprocess.Popen[bytes], request: dict[str, Any], channel: int, deadline: float,
    report: ChildReport,
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
    dropped = 0
    selector = selectors.DefaultSelector()
    selector.register(channel, selectors.EVENT_READ, "channel")
    selector.register(proc.stdout, selectors.EVENT_READ, "stdout")
    try:
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                report.timed_out = True
                break
            for key, _ in selector.select(remaining):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data == "channel":
                    received += chunk
                else:
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
    report.stdout = _cut(bytes(output), dropped)
    _parse(bytes(received), report, request["tests"])


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group (its session), then reap the child."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _parse(data: bytes, report: ChildReport, tests: list[str]) -> None:
    """Sort the records into the report.  They must follow the protocol's order (confined,
    import, diagram?, the tests in the order asked, done); a malformed, repeated or misplaced
    record marks the channel as tampered with, which forfeits every test of the run."""
    stage, asked = "start", iter(tests)
    for line in data.splitlines():
        try:
            record = wire.decode(line)
        except wire.WireError as exc:
            report.tampered = report.tampered or f"malformed record: {exc}"
            continue
        kind = record["kind"]
        if kind == "confined" and stage == "start":
            report.layers = [str(x) for x in record.get("layers", []) if type(x) is str]
            stage = "confined"
        elif kind == "import" and stage == "confined":
            report.import_error = record.get("error")
            stage = "imported" if report.import_error is None else "failed"
        elif kind == "diagram" and stage == "imported" and report.diagram is None:
            report.diagram = record
        elif kind == "test" and stage == "imported" and record["name"] == next(asked, None):
            report.tests[record["name"]] = record
        elif kind == "done" and stage in ("imported", "failed"):
            report.done, stage = True, "done"
        else:
            report.tampered = report.tampered or f"unexpected {kind} record"
