"""The only writer of the grader's pipe: a relay that never runs submitted code, and a worker
that runs it without holding that pipe.

Once the child has isolated itself (and before any submitted code runs) it forks.  The worker
closes the grader's pipe, applies the isolation filter naming itself and its confinement
(``Work.confine``), says which layers it applied, then answers one step at a time (import,
diagram, each test: ``Work.steps``).  The relay keeps the pipe: for each step it sends the
worker a fresh nonce from ``os.urandom``, reads exactly one answer, and writes the record
itself, with the kind and test name of the step it asked for.  So a record reaches the grader
only as the answer to the step the relay asked for, in its place:

* writing records to the grader's pipe is impossible (the worker does not hold it, cannot open
  it through ``/proc``: the relay is not dumpable, and cannot trace the relay: seccomp);
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
import json
import os
import signal
import sys
import traceback
from typing import Any, Protocol

from grader.sandbox.child import codec, seccomp, wire
from grader.sandbox.child.seal import touched
from grader.sandbox.child.wire import TOUCHES, Touch

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_GET_DUMPABLE = 1, 4, 3
_NONCE_BYTES = 16
_CHUNK = 1 << 16


class Steps(Protocol):
    """What the worker does (``grader.sandbox.child.main.Work``)."""

    steps: list[tuple[str, str | None]]

    def confine(self) -> list[str]: ...

    def watch(self, flags: int) -> list[str]: ...

    def do(self, number: int) -> Any: ...

    def changed(self) -> str | None: ...


_os_write, _os_read = os.write, os.read  # as loaded, before any submitted code ran: a module rewritten cannot change them


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_os_write(fd, view):]


class _Flooded(Exception):
    """The worker sent more than ``wire.MAX_CHANNEL_BYTES`` without ending a line."""


def _line(fd: int, buffer: bytearray) -> bytes | None:
    """The next line from ``fd`` (``buffer`` keeps what was read past it); None at the end of
    the pipe; raises _Flooded past ``wire.MAX_CHANNEL_BYTES``."""
    scanned = 0
    while b"\n" not in buffer[scanned:]:
        scanned = len(buffer)
        if scanned > wire.MAX_CHANNEL_BYTES:
            raise _Flooded
        chunk = _os_read(fd, _CHUNK)
        if not chunk:
            return None
        buffer += chunk
    line, _, rest = bytes(buffer).partition(b"\n")
    buffer[:] = rest
    return line


def serve(channel: int, layers: list[str], work: Steps) -> None:
    """In the isolated child: fork the worker, relay its answers to ``channel`` (the grader's
    pipe), and end with the worker's exit status (see the module doc)."""
    asks_read, asks = os.pipe()
    answers, answers_write = os.pipe()
    flags, flags_write = os.pipe()
    libc = ctypes.CDLL(None, use_errno=True)
    dumpable = libc.prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)  # the worker shares its uid: no /proc/<relay>/fd
    relay = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(flags)
        _worker(work, asks_read, answers_write, flags_write, relay, max(dumpable, 0))
    os.close(asks_read)
    os.close(answers_write)
    os.close(flags_write)
    if _relay(channel, layers, work, asks, answers, _Flags(flags)):
        os.close(asks)  # the worker reads the end of its steps and leaves
        _write(channel, wire.encode({"kind": "ended", "code": _reap(pid)}))
    # else the worker broke the protocol: it may be blocked writing to a pipe nobody reads,
    # so the relay leaves without waiting and the worker dies with it (PR_SET_PDEATHSIG)


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
    the grader's pipes."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd, self.buffer, self.closed = fd, bytearray(), False
        self.said: set[str] = set()

    def new(self, alive: bool) -> list[str]:
        """The touches not said yet; ``alive``: the worker is still answering."""
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
        found += [text if text in TOUCHES else Touch.WIRE.value
                  for text in (line.decode("utf-8", "replace") for line in lines)]
        fresh = [t for t in dict.fromkeys(found) if t not in self.said]
        self.said.update(fresh)
        return fresh

    def say(self, channel: int, alive: bool) -> None:
        """Write a ``flagged`` record for what is new on the pipe, if anything is."""
        touched = self.new(alive)
        if touched:
            _write(channel, wire.encode({"kind": "flagged", "touched": touched}))


def _relay(channel: int, layers: list[str], work: Steps, asks: int, answers: int,
           flags: _Flags) -> bool:
    """Ask each step and write its record, and after it what the sentinel flagged; False when
    the worker broke the protocol (a ``tampered`` record is written then), True when it
    answered every step asked or died."""
    buffer = bytearray()
    hello = _line(answers, buffer)  # written before any submitted code ran
    if hello is None:
        return True
    worker = json.loads(hello)
    _write(channel, wire.encode({"kind": "confined", "layers": [*layers, "relay", *worker]}))
    for number, (kind, name) in enumerate(work.steps):
        nonce = os.urandom(_NONCE_BYTES).hex()
        step = f"test {name!r}" if name else f"the {kind}"
        try:
            _write(asks, json.dumps({"step": number, "nonce": nonce}).encode() + b"\n")
            line = _line(answers, buffer)
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
        flags.say(channel, alive=True)
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


def _worker(work: Steps, asks: int, answers: int, flags: int, relay: int, dumpable: int) -> None:
    """The forked worker: hold nothing but its own pipes and output, confine itself, set its
    sentinel on the flag pipe, answer each step the relay asks for, and leave when it asks no
    more."""
    code = 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != relay:
            os._exit(1)
        libc.prctl(_PR_SET_DUMPABLE, dumpable, 0, 0, 0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        keep = sorted({0, 1, 2, asks, answers, flags})  # the grader's pipe and all else close
        for low, high in zip(keep, keep[1:] + [max(os.sysconf("SC_OPEN_MAX"), 1 << 16)]):
            os.closerange(low + 1, high)
        layers = seccomp.isolate() + work.confine() + work.watch(flags)
        _write(answers, codec.dumps(layers) + b"\n")
        buffer = bytearray()
        while (line := _line(asks, buffer)) is not None:
            ask = codec.loads(line)
            record = work.do(ask["step"])
            changed = work.changed()
            if changed is not None:  # said before the answer, which a rewritten module may forge
                _write(flags, touched(changed).value.encode() + b"\n")
            _write(answers, codec.dumps({"nonce": ask["nonce"], "record": record}) + b"\n")
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


def exit_flushed(code: int) -> None:
    """End this forked process with ``code``: flush what it printed, then ``os._exit`` (no
    interpreter shutdown, no ``atexit`` of the parent's copy)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a closed or broken stream: nothing to keep
            pass
    os._exit(code)
