"""The only writer of the grader's pipe: a relay that never runs submitted code, and a worker
that runs it without holding that pipe.

Once the child has isolated itself (and before any submitted code runs) it forks.  The worker
closes the grader's pipe, gets ready (a lone child's worker applies the isolation filter naming
itself; a batch's reads its exercise's request and loads its tests first:
``grader.sandbox.child.supervisor``), confines itself (``Work.confine``), and says hello: the
layers it applied and the steps it will answer (import, diagram, each test: ``Work.steps``),
before the submission is imported.  Then it answers one step at a time.  The relay keeps the
pipe: for each step of the hello it sends the worker a fresh nonce from ``os.urandom``, reads
exactly one answer, and writes the record itself, with the kind and test name of the step it
asked for.  So a record reaches the grader
only as the answer to the step the relay asked for, in its place:

* writing records to the grader's pipe is impossible (the worker does not hold it, cannot open
  it through ``/proc``: the relay is not dumpable, and cannot trace the relay: seccomp);
* the worker is not dumpable either: its own ``/proc/self`` files (``mem``, ``fd``, ``maps``)
  belong to root, so where no Landlock keeps it out of ``/proc`` it cannot write its own memory
  through ``/proc/self/mem`` (the probes' counters and observers, as ``ctypes`` would);
* answers written ahead of time (at import, say) carry no valid nonce: the relay writes a
  ``tampered`` record and stops, which forfeits the run's tests;
* an answer cannot name another test, skip one, or end the run early with ``done``.

What an answer *contains* (the observations of the step asked for) is still whatever the
process running the submission made of it: the submission can answer the step being asked in
place of the probe (it runs in that process).  The grader's ``docs/grader.md`` says what it may
claim so and what the parent checks.  The relay ends with an ``ended`` record giving the
worker's exit status (a signal, an exit code), which the grader reads as the child's.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

from grader.sandbox.child import codec, seccomp, wire
from grader.sandbox.child.plan import IsolationError
from grader.sandbox.child.seal import touched
from grader.sandbox.child.wire import TOUCHES, Touch

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE = 1, 4
_NONCE_BYTES = 16
_CHUNK = 1 << 16


class Steps(Protocol):
    """What the worker does (``grader.sandbox.child.main.Work``)."""

    steps: list[tuple[str, str | None]]

    def confine(self) -> list[str]: ...

    def watch(self, flags: int) -> list[str]: ...

    def do(self, number: int) -> Any: ...

    def changed(self) -> str | None: ...


_select, _monotonic = select.select, time.monotonic
_os_write, _os_read = os.write, os.read  # as loaded, before any submitted code ran: a module rewritten cannot change them


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_os_write(fd, view):]


class _Flooded(Exception):
    """The worker sent more than ``wire.MAX_CHANNEL_BYTES`` without ending a line."""


def _line(fd: int, buffer: bytearray, deadline: float | None = None) -> bytes | None:
    """The next line from ``fd`` (``buffer`` keeps what was read past it); None at the end of
    the pipe; raises _Flooded past ``wire.MAX_CHANNEL_BYTES``, Expired when nothing came by
    ``deadline`` (``time.monotonic``; None: no limit)."""
    scanned = 0
    while b"\n" not in buffer[scanned:]:
        scanned = len(buffer)
        if scanned > wire.MAX_CHANNEL_BYTES:
            raise _Flooded
        if deadline is not None and not _select([fd], [], [], max(deadline - _monotonic(), 0))[0]:
            raise Expired
        chunk = _os_read(fd, _CHUNK)
        if not chunk:
            return None
        buffer += chunk
    line, _, rest = bytes(buffer).partition(b"\n")
    buffer[:] = rest
    return line


class WorkerPipes:
    """The three pipes between the relay and one worker, both ends of each until the fork:
    the relay's asks, the worker's answers, and the sentinel's flags."""

    def __init__(self) -> None:
        self.asks_read, self.asks = os.pipe()
        self.answers, self.answers_write = os.pipe()
        self.flags, self.flags_write = os.pipe()

    def worker_ends(self) -> tuple[int, int, int]:
        return self.asks_read, self.answers_write, self.flags_write

    def relay_ends(self) -> tuple[int, int, int]:
        return self.asks, self.answers, self.flags


class Expired(Exception):
    """The exercise's time ran out while the relay waited for the worker."""


def fork_worker(ready: Callable[[], tuple[list[str], Steps]], output: int) -> tuple[int, WorkerPipes]:
    """Fork the worker, which keeps only its own pipes (and ``output`` as its stdout and stderr,
    when not -1), then runs ``ready`` (what the worker does before it confines itself: its
    layers applied so far and its steps) and answers (``_worker``); in this process, the
    worker's pid and the pipes, the worker's ends closed.  The worker inherits this process's
    not being dumpable (``not_dumpable``) and keeps it."""
    pipes = WorkerPipes()
    relay = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(pipes.flags)
        _worker(ready, pipes, output, relay)
    for fd in pipes.worker_ends():
        os.close(fd)
    return pid, pipes


def not_dumpable() -> None:
    """Make this process, and the workers it forks, not dumpable: their ``/proc/<pid>`` files
    belong to root, so that a worker, which shares this process's uid and has no capabilities,
    opens neither this process's descriptors (``/proc/<relay>/fd``) nor its own memory
    (``/proc/self/mem``, a write to any object of its process)."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def serve(channel: int, layers: list[str], work: Steps) -> NoReturn:
    """In the isolated child: fork the worker, relay its answers to ``channel`` (the grader's
    pipe), say the worker's exit status (see the module doc) and leave at once: the grader
    reads until this process has gone, and an interpreter's shutdown, which frees every module
    loaded, would only make it wait (about 30 million instructions)."""
    not_dumpable()
    pid, pipes = fork_worker(lambda: (seccomp.isolate(), work), -1)
    if relay(channel, layers, pipes, None) is not False:
        os.close(pipes.asks)  # the worker reads the end of its steps and leaves
        _write(channel, wire.encode({"kind": "ended", "code": _reap(pid)}))
    # else the worker broke the protocol: it may be blocked writing to a pipe nobody reads,
    # so the relay leaves without waiting and the worker dies with it (PR_SET_PDEATHSIG)
    exit_flushed(0)


def _reap(pid: int) -> int:
    """Wait for the worker; its exit status as ``subprocess`` gives it (negative: a signal)."""
    while True:
        try:
            return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        except InterruptedError:
            continue
        except ChildProcessError:
            return -signal.SIGKILL


class _Flags:
    """The flag pipe's reading end: what the worker's sentinel blocked
    (``grader.sandbox.child.sentinel``), each ``Touch`` said once.  Anything on it that the
    sentinel does not write, or the pipe closed while the worker still answers, is a touch of
    the grader's pipes.  So is a step whose answer came without the step's nonce on this pipe
    before it (``_answer_steps``): the pipe the sentinel writes to was not this one then (the
    submission closed its descriptor, kept a copy open and put a file of its own in its place,
    so that flags went to the file and the pipe never ended)."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd, self.buffer, self.closed = fd, bytearray(), False
        self.said: set[str] = set()

    def new(self, alive: bool, nonce: str | None = None) -> list[str]:
        """The touches not said yet; ``alive``: the worker is still answering, and wrote
        ``nonce`` (None: no step answered) after the step's flags."""
        found = []
        while not self.closed:
            try:
                chunk = os.read(self.fd, _CHUNK)
            except BlockingIOError:
                break
            self.closed = not chunk
            found += [Touch.WIRE.value] if self.closed and alive else []
            self.buffer += chunk
            if len(self.buffer) > _CHUNK:
                self.buffer.clear()
                found.append(Touch.WIRE.value)
        *lines, rest = bytes(self.buffer).split(b"\n")
        self.buffer[:] = rest
        texts = [line.decode("utf-8", "replace") for line in lines]
        if nonce is not None and nonce not in texts:
            found.append(Touch.WIRE.value)
        found += [text if text in TOUCHES else Touch.WIRE.value for text in texts if text != nonce]
        fresh = [t for t in dict.fromkeys(found) if t not in self.said]
        self.said.update(fresh)
        return fresh

    def say(self, channel: int, alive: bool, nonce: str | None = None) -> None:
        """Write a ``flagged`` record for what is new on the pipe, if anything is (``new``)."""
        touched = self.new(alive, nonce)
        if touched:
            _write(channel, wire.encode({"kind": "flagged", "touched": touched}))


def relay(channel: int, layers: list[str], pipes: WorkerPipes,
          deadline: float | None) -> bool | None:
    """Ask each step the worker's hello names and write its record, and after it what the
    sentinel flagged; False when the worker broke the protocol (a ``tampered`` record is
    written then), True when it answered every step asked or died, None when it died before
    its hello (nothing written); raises Expired at ``deadline`` (None: never)."""
    buffer, flags = bytearray(), _Flags(pipes.flags)
    hello = _line(pipes.answers, buffer, deadline)  # written before any submitted code ran
    if hello is None:
        return None
    said = json.loads(hello)
    if "refused" in said:
        _write(channel, wire.encode({"kind": "refused", "reason": said["refused"]}))
        return True
    _write(channel, wire.encode({"kind": "confined", "layers": [*layers, "relay", *said["layers"]]}))
    for number, (kind, name) in enumerate(said["steps"]):
        nonce = os.urandom(_NONCE_BYTES).hex()
        step = f"test {name!r}" if name else f"the {kind}"
        try:
            _write(pipes.asks, json.dumps({"step": number, "nonce": nonce}).encode() + b"\n")
            line = _line(pipes.answers, buffer, deadline)
        except BrokenPipeError:
            flags.say(channel, alive=False)
            return True  # the worker is gone: its status says how
        except _Flooded:
            line = b""
        if line is None:
            flags.say(channel, alive=False)
            return True
        record = _answer(line, nonce, kind, name)
        if record is None:
            _write(channel, wire.encode({"kind": "tampered", "reason": (
                f"the answer to {step} was not the one the grader's probe wrote")}))
            return False
        _write(channel, wire.encode(record))
        flags.say(channel, alive=True, nonce=nonce)
        if kind == "import" and record.get("error") is not None:
            break
    _write(channel, wire.encode({"kind": "done"}))
    return True


def _answer(line: bytes, nonce: str, kind: str, name: str | None) -> dict[str, Any] | None:
    """The record in the worker's answer, made the step's own (its kind, its test name); None
    when the answer is not one to this step."""
    try:
        answer = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if type(answer) is not dict or set(answer) != {"nonce", "record"}:
        return None
    record = answer["record"]
    if answer["nonce"] != nonce or type(record) is not dict or record.get("kind") != kind:
        return None
    if kind == "test":
        record["name"] = name
    return record


def _worker(ready: Callable[[], tuple[list[str], Steps]], pipes: WorkerPipes, output: int,
            relay: int) -> None:
    """The forked worker: hold nothing but its own pipes and output, get ready (``ready``),
    confine itself, set its sentinel on the flag pipe, say hello (its layers and steps, or why
    it refused), answer each step the relay asks for, and leave when it asks no more."""
    code = 0
    asks, answers, flags = pipes.worker_ends()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != relay:
            os._exit(1)
        if output >= 0:
            os.dup2(output, 1)
            os.dup2(output, 2)
            _streams_anew()
        keep = sorted({0, 1, 2, asks, answers, flags})  # the grader's pipes and all else close
        for low, high in zip(keep, keep[1:] + [max(os.sysconf("SC_OPEN_MAX"), 1 << 16)]):
            os.closerange(low + 1, high)
        try:
            layers, work = ready()  # may still read stdin (the supervisor's request)
        except IsolationError as exc:
            _write(answers, codec.dumps({"refused": str(exc)}) + b"\n")
            return
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        layers += work.confine() + work.watch(flags)
        gc.freeze()  # what the probes' collections need not walk (nor copy the pages of)
        _write(answers, codec.dumps({"layers": layers, "steps": work.steps}) + b"\n")
        _answer_steps(work, asks, answers, flags)
    except BrokenPipeError:  # the relay left (it saw the protocol broken): nothing to say
        code = 1
    except BaseException:  # noqa: BLE001 - the worker's own failure: said on its output
        code = 1
        try:
            traceback.print_exc()
        except BaseException:  # noqa: BLE001 - nothing left to say it with
            pass
    finally:
        exit_flushed(code)


def _streams_anew() -> None:
    """``sys.stdout`` and ``sys.stderr`` made anew over descriptors 1 and 2, now the output pipe,
    as Python made them at its start: those were made for what 1 and 2 were then (a batch's
    child starts on ``/dev/null``, which can seek), and a submission's
    ``sys.stdout.reconfigure(encoding="utf-8")`` (the Windows habit for printing Chinese), which
    seeks a stream made so, raised ``OSError: Illegal seek`` at import."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        old = getattr(sys, name)
        old.flush()
        new = open(fd, "w", encoding=old.encoding, errors=old.errors, closefd=False)  # noqa: SIM115 - kept as sys's
        new.reconfigure(line_buffering=old.line_buffering, write_through=old.write_through)
        setattr(sys, name, new)  # ``sys.__stdout__`` is left as it was: the snapshot compares it


def _answer_steps(work: Steps, asks: int, answers: int, flags: int) -> None:
    """Answer each step asked, until the relay asks no more."""
    buffer = bytearray()
    while (line := _line(asks, buffer)) is not None:
        ask = codec.loads(line)
        record = work.do(ask["step"])
        changed = work.changed()
        if changed is not None:  # said before the answer, which a rewritten module may forge
            _write(flags, touched(changed).value.encode() + b"\n")
        _write(flags, ask["nonce"].encode() + b"\n")  # the pipe is still the relay's: ``_Flags``
        _write(answers, codec.dumps({"nonce": ask["nonce"], "record": record}) + b"\n")


def exit_flushed(code: int) -> NoReturn:
    """End this process with ``code``: flush what it printed, then ``os._exit`` (no
    interpreter shutdown, no ``atexit``: in a forked worker they are its parent's copy)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a closed or broken stream: nothing to keep
            pass
    os._exit(code)
