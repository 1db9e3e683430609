"""The sandboxed child: confine itself, import the submission, run the probes, report JSON.

Started by ``grader.sandbox.run`` as ``python -I -S -u -c <bootstrap>`` in a scratch directory that
holds only a copy of the submission.  The request arrives as one JSON object on stdin; records
(see ``grader.sandbox.child.wire``) leave over the pipe fd named in the request (on Windows,
over stdout: ``grader.sandbox.pipes``).  Everything trusted (the test
module, ``micrograph``, the helpers) is loaded *before* the process confines itself, and the
submission is imported only after.  From then on nothing here is trusted by the grader: this
code just does its honest best to observe and report.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import pkgutil
import sys
import sysconfig
import time
import types
from collections.abc import Callable

import micrograph
from micrograph import grad_mode, observe

from grader import spec
from grader.sandbox.child import again, confine, guard, quitting, relay, seal, sentinel, shown, unaudited, wire
from grader.sandbox.child.alarm import Overrun, Share, alarm, probe_seconds
from grader.sandbox.child.copies import Copies
from grader.sandbox.child.diagram_step import diagram_record
from grader.sandbox.child.isolate import isolate
from grader.sandbox.child.located import keep_source
from grader.sandbox.child.plan import IsolationError, Plan
from grader.sandbox.child.reported import NotPlain, error_record, plain, probe_error
from grader.sandbox.child.wire import ProbeRecord, Record, Request
from grader.spec import helpers, hooked, raise_site, repeat
from grader.spec.copy_share import copies_under
from grader.spec.limits import Limits

_write = os.write


def _send(fd: int, record: Record) -> None:
    """Write one record (already plain, see ``reported.plain``) to the grader's pipe."""
    view = memoryview(wire.encode(record))
    while view:
        view = view[_write(fd, view) :]


def _load_tests(name: str, source: str, code: wire.Compiled) -> types.ModuleType:
    """Run the test module's code under its own name (its file is not readable later)."""
    module = types.ModuleType(name)
    module.__file__ = wire.tests_file(name)
    keep_source(module.__file__, source)
    sys.modules[name] = module
    exec(wire.loaded(name, source, code), module.__dict__)
    return module


def readable_dirs() -> list[str]:
    """What the confined child may still read: the stdlib and micrograph, nothing else."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
    dirs = {
        os.path.dirname(os.__file__),
        sysconfig.get_path("stdlib", vars=base),
        sysconfig.get_path("platstdlib", vars=base),
        os.path.dirname(micrograph.__file__),
    }
    return sorted(d for d in dirs if d)


def _test_record(test: spec.Test, sub: types.ModuleType, submission: str,
                 share: Share, reset: Callable[[], None]) -> ProbeRecord:
    """Run one test's probe under its time budget: its observations, or why there are none; for an
    error that went through the submission's file, whether the probe runs on fresh imports of it
    (``again``).  The process's modes are as ``reset`` leaves them, before each run of the probe."""
    record: ProbeRecord = {"kind": "test", "name": test.name, "obs": None, "error": None}
    helpers.RAN_WHEN_RAISED.clear()
    started = again.Started()
    try:
        with alarm(share):
            observed = test.probe(sub)
        record["obs"] = plain(observed)
    except NotPlain as exc:
        record["error"] = probe_error(exc)
    except BaseException as exc:  # noqa: BLE001 - includes SystemExit, MemoryError, timeouts
        record["error"] = error = error_record(exc, submission)
        record["obs"] = {helpers.HELPERS_RAN: list(helpers.RAN_WHEN_RAISED)} if helpers.RAN_WHEN_RAISED else None
        error["fresh"] = error["function"] is not None and again.runs_when_fresh(test.probe, sub, exc, share,
                                                                                 started, reset)
    return record


def _fresh_mode() -> None:
    """Grad mode on and inference mode off, as a new process starts: a submission that switched
    either off and never back (``set_grad_enabled(False)`` called as a function) in the diagram
    probe or an earlier test is told by the test that watched it do so, and must not make a later
    step's correct function look as if it were the one that left the mode off."""
    micrograph.set_grad_enabled(True)
    grad_mode.set_inference(False)


def _stdout_channel() -> int:
    """Where the grader passed no pipe of its own (Windows): the records go to the stdout the
    grader reads, and fd 1 (``print``, the submission's output) now goes where stderr goes."""
    channel = os.dup(1)
    os.dup2(2, 1)
    return channel


def main() -> None:
    """One exercise in this process: the child ``grader.sandbox.run.run_child`` starts.  What
    it loads before its request is what it loads anyway, and may start before the grader knows
    the isolation (``grader.sandbox.warm``); the exercise's time begins with the request."""
    preload()
    request: Request = json.loads(sys.stdin.buffer.read())
    started = time.monotonic()
    plan = Plan.from_request(dict(request["isolation"], readable=readable_dirs()))
    run(request, started, plan, lambda: isolate(plan))


def preload() -> None:
    """Import, while their files are still readable, what a test module may use after the
    isolation: every helper of ``grader.spec`` and ``micrograph.viz`` (to draw with), and the
    engine's sources and code as loaded now (``raise_site.remember``: by the modules imported
    so far, before the helpers add theirs); and give the calls on the machine that raise no
    audit event one (``unaudited``); put ``exit`` and ``quit`` among the builtins (``quitting``)."""
    raise_site.remember()
    unaudited.audit()
    quitting.install()
    for module in pkgutil.iter_modules(spec.__path__, f"{spec.__name__}."):
        importlib.import_module(module.name)
    try:
        importlib.import_module("micrograph.viz")
    except Exception:  # noqa: BLE001 - no viz means no diagram, nothing more
        pass


def leave_course_path() -> None:
    """Take the folders holding ``grader`` and ``micrograph`` off ``sys.path`` once both are
    loaded: their packages find their own modules, and the course folder beside them
    (``solutions/``, the tests) is no longer a place the submission imports from."""
    packages = (micrograph.__file__, sys.modules["grader"].__file__)
    roots = {os.path.dirname(os.path.dirname(os.path.abspath(f))) for f in packages if f}
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") not in roots]


class Work:
    """What the process that runs the submission does, step by step: confine itself, import
    the submission, draw, run each test's probe; each step gives the record the grader gets."""

    def __init__(self, request: Request, exercise: spec.Exercise, plan: Plan,
                 started: float, sealed: seal.Sealing | None = None) -> None:
        self.submission = request["submission"]
        self.limits = Limits.from_json(request["limits"])
        self.exercise, self.plan, self.started = exercise, plan, started
        self.cpu_started = time.process_time()  # again when the import starts, in the worker
        self.names: list[str] = request["tests"]
        self.steps: list[tuple[str, str | None]] = [("import", None)]
        if request["diagram"] and exercise.diagram_probe is not None:
            self.steps.append(("diagram", None))
        self.steps += [("test", name) for name in self.names]
        self.module: types.ModuleType | None = None
        self.tests_name = request["tests_module"]
        self.tests_file = wire.tests_file(self.tests_name)
        self.sealed = sealed  # what the process this one was forked from sealed (``seal_loaded``)
        self.snapshot: seal.Snapshot | None = None
        self.copies = Copies(self.limits, self.submission,  # the fresh copies' shares (``copies``)
                             lambda: self.limits.wall_seconds - (time.monotonic() - self.started))

    def confine(self) -> list[str]:
        """Landlock, the no-processes filter and the exercise's rlimits; the layers applied."""
        return confine.confine(self.limits, read=self.plan.readable,
                               read_write=[os.path.dirname(self.submission), os.devnull],
                               landlock=self.plan.landlock)

    def watch(self, flags: int) -> list[str]:
        """Before any submitted code runs: set the sentinel unless the plan says not to (its
        flags go to ``flags``, -1: nowhere), seal the engine's, the grader's and the test
        module's modules (``seal``: nothing outside them rebinds what the probes read), and
        take the test module and the grader's modules out of ``sys.modules``, so that the
        submission can neither find them by name nor replace what they hold (the probes keep
        their own references); the layer applied."""
        engine = os.path.dirname(micrograph.__file__)
        grader_dir = os.path.dirname(os.path.dirname(spec.__file__))
        if self.plan.sentinel:
            sentinel.install(flags, [os.path.join(d, "") for d in (grader_dir, engine)],
                             [os.path.join(d, "") for d in self.plan.readable if d != engine],
                             self.tests_file, self.submission)
        sealing = seal.seal_loaded(self.tests_name, self.sealed, self.plan.freeze)
        self.snapshot = sealing.snapshot
        # a class write put back within a step (where classes are not frozen), or a dunder
        # written past a seal: looked for at each pass and watched call too
        hooked.WRITES.checking(self.snapshot.check_grown if sealing.frozen else self.snapshot.check)
        for name in [n for n in seal.ours(self.tests_name) if not n.startswith("micrograph")]:
            del sys.modules[name]
        return ["sentinel"] if self.plan.sentinel else []

    def changed(self) -> str | None:
        """A module the submission rewrote since ``watch`` sealed it, or None (``seal.Snapshot``)."""
        return None if self.snapshot is None else self.snapshot.changed()

    def do(self, number: int) -> Record:
        """Step ``number`` of ``steps``; its record.  Every backward pass the step runs, watched
        by a probe or not, tells ``hooked.WRITES`` whether the student's code chose its numbers;
        a fresh copy of the submission it makes runs its top level under ``copies.copy_share``."""
        with observe.observing(hooked.WRITES), copies_under(self.copies.share):
            return self._do(number)

    def _do(self, number: int) -> Record:
        kind, name = self.steps[number]
        if kind == "import":
            return self._import()
        assert self.module is not None
        if not self.exercise.own_engine:  # a build-track stage runs its own engine's grad mode
            _fresh_mode()
        if kind == "diagram":
            return diagram_record(self.exercise, self.module, self.submission, self.diagram_share())
        probes_left = len(self.names) - self.names.index(name)  # type: ignore[arg-type]
        reset = (lambda: None) if self.exercise.own_engine else _fresh_mode
        return _test_record(self.exercise.get(name), self.module, self.submission, self.share(probes_left), reset)

    def _import(self) -> Record:
        """Import the submission under its share of the time (``Limits.import_share``): a top
        level that loops or waits is stopped there, at the line it ran, not by the parent's kill
        at the end of the exercise's time.  Stopped by the clock, the error says how much CPU the
        import used, rounded up to 0.01 s: the rest of that time it waited."""
        self.cpu_started = time.process_time()  # this process's CPU since its fork, import included
        sys.dont_write_bytecode = True
        cpu = self.limits.import_seconds
        wall = cpu * self.limits.wall_factor
        share = Share(cpu, wall, Overrun(wire.IMPORT_TIMEOUT, f"the import used more than {cpu:g} s of CPU time"),
                      Overrun(wire.IMPORT_TIMEOUT, f"the import ran more than {wall:g} s"))
        try:
            with alarm(share):
                self.module = guard.import_submission(self.submission, self.exercise.module, repeat.imported)
        except BaseException as exc:  # noqa: BLE001 - whatever happens at import is reported
            error = error_record(exc, self.submission)
            if exc is share.wall_overrun:
                used = math.ceil((time.process_time() - self.cpu_started) * 100) / 100
                error["message"] += f", at most {used:g} s of it on the CPU"
            return {"kind": "import", "error": error}
        return {"kind": "import", "error": None}

    def diagram_share(self) -> Share:
        """The diagram probe's time: its fixed part of the exercise's, of CPU and of the clock."""
        cpu, wall = self.limits.diagram_seconds, self.limits.diagram_seconds * self.limits.wall_factor
        return Share(cpu, wall, Overrun(wire.DIAGRAM_TIMEOUT, f"the code drawn used more than {cpu:g} s of CPU time"),
                     Overrun(wire.DIAGRAM_TIMEOUT, f"the code drawn ran more than {wall:g} s"))

    def share(self, probes_left: int) -> Share:
        """The next probe's share of the CPU time and of the clock the exercise has left, with
        ``probes_left`` probes (this one included) still to run."""
        cpu = probe_seconds(self.limits.time - (time.process_time() - self.cpu_started), probes_left)
        wall = probe_seconds(self.limits.wall_seconds - (time.monotonic() - self.started), probes_left)
        return Share(cpu, wall, Overrun(wire.PROBE_TIMEOUT, f"used more than {cpu:.3g} s of CPU time"),
                     Overrun(wire.PROBE_TIMEOUT, f"timed out after {wall:.3g} s"))


def prepare(request: Request, started: float, plan: Plan,
            isolating: Callable[[], list[str]], sealed: seal.Sealing | None = None) -> tuple[list[str], Work]:
    """Load the request's tests, isolate (``isolating`` returns the layers applied, or raises
    IsolationError): the layers and the work of the process that runs the submission.
    ``started`` is when the exercise's time began; the helpers a test module may use were
    loaded before (``preload``), and ``plan.readable`` is ``readable_dirs()``."""
    tests_module = _load_tests(request["tests_module"], request["tests_source"],
                               request["tests_code"])
    exercise: spec.Exercise = tests_module.EXERCISE
    shown.show_only_the_submissions()
    leave_course_path()
    layers = isolating()
    return layers, Work(request, exercise, plan, started, sealed)


def run(request: Request, started: float, plan: Plan,
        isolating: Callable[[], list[str]]) -> None:
    """Run one exercise's request in a child of its own: ``prepare``, then hand the rest to a
    worker process that confines itself, imports the submission and runs the probes, while
    this process relays the worker's answers to the request's pipe
    (``grader.sandbox.child.relay``); where there is no ``fork`` (Windows) this process does
    both."""
    fd = request["fd"]
    if fd < 0:
        fd = _stdout_channel()
    try:
        layers, work = prepare(request, started, plan, isolating)
    except IsolationError as exc:
        _send(fd, {"kind": "refused", "reason": str(exc)})
        return
    if hasattr(os, "fork"):
        relay.serve(fd, layers, work)  # never returns
    _send(fd, {"kind": "confined", "layers": layers + work.confine() + work.watch(-1)})
    for number in range(len(work.steps)):
        record = work.do(number)
        _send(fd, record)
        if record["kind"] == "import" and record["error"] is not None:
            break
    _send(fd, {"kind": "done"})
