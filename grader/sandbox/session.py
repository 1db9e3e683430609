"""Run all the exercises of one submission in one sandboxed child, one process per exercise.

The parent side of ``grader.sandbox.child.supervisor``.  A child per exercise costs a Python
start, the imports and the namespaces each time, more CPU than most exercises' probes; here one
child is started per submission (same scratch folder, same isolation, its own uid), and it forks
one process per exercise.  Each exercise keeps what a child of its own gives it: its limits
(rlimits and wall clock), its own pipes (records, and output cut to ``Limits.output``), its own
wait status, and a crash, a hang or a bomb costs it alone.

The parent talks to the supervisor over a control pipe (``started``/``ended`` with the wait
status) and hands each exercise's request to stdin only once the previous one has ended.  The
supervisor kills an exercise at its time limit; if it does not say so within ``GRACE`` seconds
more, if it dies, or if the scratch folder passes its budget, the parent kills the whole child
itself, charges the exercise running then, and starts a fresh child for the ones left.  Needs
``fork`` and descriptors passed to a child: on other systems every run goes through
``grader.sandbox.run.run_child``, one child each.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.sandbox import isolation, pipes, scratch, uids
from grader.sandbox.forkserver import SUPERVISOR
from grader.sandbox.early import FirstDiagram, OnDiagram
from grader.sandbox.reach import Reach, reaches
from grader.sandbox.child import wire
from grader.sandbox.records import ChildReport, parse_records
from grader.sandbox.resumed import resume
from grader.sandbox.run import Spawn, run_child, spawn_here, watching
from grader.sandbox.text import Output
from grader.sandbox.warm import environment
from grader.spec.limits import Limits

GRACE = 2.0  # seconds past an exercise's limit the supervisor has to report it ended
_POLL = 0.2
_CONTROL_BYTES = 1 << 16  # what the supervisor may say about one exercise


@dataclass(frozen=True)
class Run:
    """One exercise of the submission: what ``run_child`` takes."""

    submission: Path
    module: str
    tests_module: str
    tests_source: str
    tests: list[str]
    limits: Limits
    diagram: bool
    early: OnDiagram | None = field(default=None, compare=False)  # see grader.sandbox.early
    own_engine: bool = False  # the submission is an engine of its own: it may not import micrograph


def run_children(runs: list[Run], spawn: Spawn = spawn_here) -> list[ChildReport]:
    """A report per run, in order; the runs share one child where this system allows it.
    Each report says what its submission's source reaches for (``grader.sandbox.reach``); the
    tests left after its worker ended itself ran in a fresh child (``grader.sandbox.resumed``)."""
    if (len(runs) < 2 or pipes.threaded() or not hasattr(os, "fork")
            or len({r.module for r in runs}) < len(runs)):
        reports = [_alone(run, spawn) for run in runs]
    else:
        reports = []
        while len(reports) < len(runs):
            reports += _one_child(runs[len(reports):], spawn)
    for run, report in zip(runs, reports):
        report.reached = _reached(run.submission, run.own_engine)
    return [resume(run, report, lambda left: _alone(left, spawn)) for run, report in zip(runs, reports)]


def _reached(submission: Path, own_engine: bool) -> list[Reach]:
    """What the submission's source reaches for; nothing when it cannot be read (the child's
    report says why)."""
    try:
        return reaches(submission.read_text(encoding="utf-8", errors="replace"), own_engine)
    except OSError:
        return []


def _alone(run: Run, spawn: Spawn) -> ChildReport:
    return run_child(submission=run.submission, module=run.module, tests_module=run.tests_module,
                     tests_source=run.tests_source, tests=run.tests, limits=run.limits,
                     diagram=run.diagram, spawn=spawn, early=run.early)


@dataclass
class _Slot:
    """One exercise in the child: its run, report, and the parent's ends of its pipes."""

    run: Run
    report: ChildReport
    channel: int = -1
    output: int = -1
    ends: tuple[int, int] = (-1, -1)  # the child's ends, closed here once it started
    received: bytearray = field(default_factory=bytearray)
    printed: Output = field(init=False)
    first: FirstDiagram = field(init=False)

    def __post_init__(self) -> None:
        self.printed = Output(self.run.limits.output)
        self.first = FirstDiagram(self.run.early)


def _one_child(runs: list[Run], spawn: Spawn) -> list[ChildReport]:
    """Run ``runs`` in one child until they are done or it fails; the reports of a prefix of
    them (at least one)."""
    mode = isolation.current()
    slots = [_Slot(run, ChildReport(run.limits, isolation=mode.mode)) for run in runs]
    with uids.child_uid() as uid:
        folder = tempfile.mkdtemp(prefix="grade-", dir=isolation.scratch_parent(mode.mode))
        try:
            active = []
            for slot in slots:
                try:
                    slot.report.ran_as = os.path.join(folder, f"{slot.run.module}.py")
                    scratch.copy_submission(slot.run.submission, slot.report.ran_as)
                    active.append(slot)
                except OSError as exc:
                    name = slot.run.submission.name
                    slot.report.refused = f"cannot read {name}: {exc.strerror or exc}"
            if uid is not None and isolation.drops_uid(mode.mode):
                for path in [folder, *(os.path.join(folder, f"{s.run.module}.py") for s in active)]:
                    os.chown(path, uid, uid)
            finished = _converse(mode, uid, folder, active, spawn) if active else len(active)
        finally:
            scratch.remove_tree(folder)
            if uid is not None and isolation.drops_uid(mode.mode):
                scratch.sweep(uid)
    last = active[finished - 1] if finished else None
    return [s.report for s in slots[: slots.index(last) + 1]] if last else [
        s.report for s in slots]


def _converse(mode: isolation.Isolation, uid: int | None, folder: str, slots: list[_Slot],
              spawn: Spawn) -> int:
    """Start the child and run ``slots`` in it; how many of them are done (at least one)."""
    control, control_end = os.pipe()
    for slot in slots:
        slot.channel, channel_end = os.pipe()
        slot.output, output_end = os.pipe()
        slot.ends = (channel_end, output_end)
    ends = [control_end, *(fd for s in slots for fd in s.ends)]
    header = _header(mode, uid, folder, control_end, slots)
    proc = None
    try:
        start = time.monotonic()
        proc = spawn([mode.python, *SUPERVISOR], folder, stdin=subprocess.PIPE,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment(folder),
                     pass_fds=tuple(ends), start_new_session=True)
        for fd in ends:
            os.close(fd)
        ends = []
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(header).encode() + b"\n")
        proc.stdin.flush()
        talk = _Talk(proc, control, watching(mode.mode, uid, folder), folder)
        for number, slot in enumerate(slots):
            first = number == 0
            if not talk.run(number, slot, start if first else time.monotonic()):
                if first and slot.report.refused and slot.report.refused.startswith("the sandbox"):
                    for other in slots[1:]:  # the same refusal for every exercise
                        talk.drain(other)
                    return len(slots)
                return number + 1
        proc.stdin.close()
        try:
            proc.wait(timeout=GRACE)  # the supervisor ends by itself after the last exercise
        except subprocess.TimeoutExpired:
            pass
        return len(slots)
    except OSError as exc:  # the child could not be started or talked to
        for slot in slots:
            slot.report.refused = slot.report.refused or f"the sandbox failed: {exc}"
        return len(slots)
    finally:
        for fd in ends:
            os.close(fd)
        if proc is not None:
            pipes.kill(proc)
            if proc.stdin is not None:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
        for fd in [control, *(fd for s in slots for fd in (s.channel, s.output))]:
            try:
                os.close(fd)
            except OSError:
                pass


def _header(mode: isolation.Isolation, uid: int | None, folder: str, control: int,
            slots: list[_Slot]) -> dict[str, Any]:
    """What the supervisor reads first: the isolation plan, its control pipe, and each
    exercise's pipes and time limit (no test: each exercise's request comes in its turn)."""
    plan = isolation.plan(mode.mode, uid, folder, [f"{s.run.module}.py" for s in slots],
                          max(s.run.limits.scratch for s in slots),
                          max(s.run.limits.scratch_entries for s in slots))
    return {"isolation": plan, "control": control,
            "runs": [{"channel": s.ends[0], "output": s.ends[1], "time": s.run.limits.wall_seconds}
                     for s in slots]}


class _Talk:
    """The parent's side of the conversation with one supervisor (see the module doc)."""

    def __init__(self, proc: subprocess.Popen[bytes], control: int, watch: scratch.Watch | None,
                 folder: str) -> None:
        self.proc, self.control, self.watch, self.folder = proc, control, watch, folder
        self.said = bytearray()  # control bytes not yet read as a message
        self.control_open = True
        self.spoiled = False  # stdin holds bytes the next exercise must not read

    def _message(self) -> dict | None:
        """The next complete control message, or None; raises ValueError when malformed."""
        if b"\n" not in self.said:
            if len(self.said) > _CONTROL_BYTES:
                raise ValueError("the supervisor said too much")
            return None
        line, _, rest = bytes(self.said).partition(b"\n")
        self.said = bytearray(rest)
        message = json.loads(line)
        if type(message) is not dict or message.get("kind") not in ("started", "ended"):
            raise ValueError("the supervisor sent a malformed message")
        return message

    def run(self, number: int, slot: _Slot, since: float) -> bool:
        """Run one exercise; False when the child must be given up (the report says why)."""
        report, limits = slot.report, slot.run.limits
        try:
            if not self._until_started(number, slot, since + limits.wall_seconds + GRACE):
                return False
            begun = time.monotonic()
            request = self._request(slot)
            os.set_blocking(self.proc.stdin.fileno(), False)  # type: ignore[union-attr]
            ended = self._collect(number, slot, memoryview(request), begun + limits.wall_seconds + GRACE)
            report.elapsed = time.monotonic() - begun
        except ValueError as exc:
            report.tampered = report.tampered or str(exc)
            ended = None
        self._finish(slot)
        if ended is None:
            return False
        status, report.timed_out = ended
        report.settle(os.waitstatus_to_exitcode(status))
        return not self.spoiled

    def _request(self, slot: _Slot) -> bytes:
        run = slot.run
        request: wire.Request = {
            "fd": slot.ends[0], "isolation": {}, "tests_module": run.tests_module,
            "submission": os.path.join(self.folder, f"{run.module}.py"),
            "tests_source": run.tests_source,
            "tests_code": wire.compiled(run.tests_module, run.tests_source),
            "tests": run.tests, "diagram": run.diagram,
            "limits": run.limits.to_json(),
        }
        return json.dumps(request).encode() + b"\n"

    def _read_control(self) -> None:
        chunk = os.read(self.control, 1 << 16)
        if not chunk:
            self.control_open = False
        self.said += chunk

    def _until_started(self, number: int, slot: _Slot, deadline: float) -> bool:
        """Wait for the supervisor's ``started``; on failure, the exercise's report says why."""
        while True:
            message = self._message()
            if message is not None:
                if message != {"kind": "started", "run": number}:
                    raise ValueError("the supervisor sent a message out of order")
                return True
            remaining = deadline - time.monotonic()
            if not self.control_open or remaining <= 0:
                slot.report.timed_out = remaining <= 0
                self.drain(slot)
                slot.report.settle(self.proc.poll())
                return False
            selector = selectors.DefaultSelector()
            try:
                selector.register(self.control, selectors.EVENT_READ)
                if selector.select(min(remaining, _POLL)):
                    self._read_control()
            finally:
                selector.close()

    def _collect(self, number: int, slot: _Slot, request: memoryview,
                 deadline: float) -> tuple[int, bool] | None:
        """Hand over the request, read the exercise's pipes and the control pipe until the
        exercise ended and its pipes closed; (wait status, timed out), or None on failure."""
        report, stdin = slot.report, self.proc.stdin
        assert stdin is not None
        ended: tuple[int, bool] | None = None
        selector = selectors.DefaultSelector()
        selector.register(slot.channel, selectors.EVENT_READ, "channel")
        selector.register(slot.output, selectors.EVENT_READ, "output")
        selector.register(self.control, selectors.EVENT_READ, "control")
        if request:
            selector.register(stdin, selectors.EVENT_WRITE, "stdin")
        try:
            while ended is None or slot.channel in _fds(selector) or slot.output in _fds(selector):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    report.timed_out = True
                    return None
                report.refused = scratch.over_budget(self.watch, report.limits)
                if report.refused:
                    return None
                for key, _ in selector.select(min(remaining, _POLL)):
                    if key.data == "stdin":
                        request = request[os.write(stdin.fileno(), request):]
                        if not request:
                            selector.unregister(stdin)
                        continue
                    if key.data == "control":
                        self._read_control()
                        if not self.control_open:
                            selector.unregister(self.control)
                        continue
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        selector.unregister(key.fileobj)
                    elif key.data == "channel":
                        slot.received += chunk
                        slot.first.feed(slot.received)
                    else:
                        slot.printed.add(chunk)
                if len(slot.received) > wire.MAX_CHANNEL_BYTES:
                    raise ValueError(f"sent more than {wire.MAX_CHANNEL_BYTES >> 20} MB")
                message = self._message() if ended is None else None
                if message is not None:
                    ended = _ended(message, number)
                elif not self.control_open and ended is None:
                    return None
            # a request not read whole would be the next exercise's first bytes: start afresh
            self.spoiled = bool(request)
            return ended
        finally:
            selector.close()

    def drain(self, slot: _Slot) -> None:
        """Read what the exercise's pipes still hold (the child is gone), and parse it."""
        for fd, keep in ((slot.channel, slot.received.extend), (slot.output, slot.printed.add)):
            os.set_blocking(fd, False)
            try:
                while (chunk := os.read(fd, 1 << 16)) and len(slot.received) <= wire.MAX_CHANNEL_BYTES:
                    keep(chunk)
            except BlockingIOError:
                pass
        self._finish(slot)

    def _finish(self, slot: _Slot) -> None:
        report, printed = slot.report, slot.printed
        report.stdout, report.stdout_lines = printed.shown(report.limits.output)
        report.stdout_dropped = printed.dropped
        parse_records(bytes(slot.received), report, slot.run.tests)


def _fds(selector: selectors.BaseSelector) -> set[int]:
    return {key.fd for key in selector.get_map().values()}


def _ended(message: dict, number: int) -> tuple[int, bool]:
    """(wait status, timed out) from the supervisor's ``ended`` message for exercise ``number``."""
    if (message.get("kind") != "ended" or message.get("run") != number
            or type(message.get("status")) is not int or type(message.get("timed_out")) is not bool
            or len(message) != 4):
        raise ValueError("the supervisor sent a message out of order")
    return message["status"], message["timed_out"]
