"""The tests left after the submission ended its own process: run again, in a fresh child.

A worker that ends itself while a step runs (``os._exit`` in one function, a test's call of it)
answers no step after that one, though the functions those steps call may be right: without a
run of their own, one ``os._exit`` in ``forward`` would cost every test of the exercise, the
tests of ``inference`` too, and a diagram probe that calls it first would cost them all.  So the
step it ended in is charged (``ChildReport.exits``, ``ChildReport.diagram_exit``) and the tests
after it run in a child of their own, with a fresh import of the file, as often as it happens
again, up to ``MAX_RESUMED`` children.

Only an end the submission's own step made is resumed: an exit it chose, or a crash of its own
(``_CRASHES``: a C stack overflowed by a recursion with Python's limit lifted); not a kill at the
time limit (the grader's ``SIGKILL``), the CPU limit (``SIGXCPU``), a tampered channel, a refused
sandbox, an import that failed, nor a run flagged for what it reached (none of those scores a
test, or another run would only spend the time again).
"""

from __future__ import annotations

import dataclasses
import signal
from typing import Callable, Protocol, TypeVar

from grader.sandbox.records import ChildReport


class Steps(Protocol):
    """What a run asks of its child (``grader.sandbox.session.Run``): the tests, and the diagram."""

    @property
    def tests(self) -> list[str]: ...

    @property
    def diagram(self) -> bool: ...


Run = TypeVar("Run", bound=Steps)

_CRASHES = frozenset(int(getattr(signal, name, 0)) for name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT"))
"""The signals a process's own code ends it with, as opposed to a limit's or the grader's."""
MAX_RESUMED = 4
"""Children started for the tests left, at most: each charges one test more, so a file that
ends itself in every test costs at most this many more children."""


def exited_in(run: Run, report: ChildReport) -> str | None:
    """The step the worker of ``report`` ended itself in: a test's name, "" for the diagram, or
    None where it did not end itself, or ended after its last step."""
    if (not report.imported or report.import_error is not None or report.done or report.tampered
            or report.refused or report.timed_out or report.touched or report.reached
            or report.returncode is None or report.returncode < 0 and -report.returncode not in _CRASHES):
        return None
    if run.diagram and report.diagram is None:
        return ""
    return next((name for name in run.tests if name not in report.tests), None)


def resume(run: Run, report: ChildReport, again: Callable[[Run], ChildReport]) -> ChildReport:
    """``report`` with the step its worker ended itself in charged, and the records of the tests
    after it, which ``again`` runs in a fresh child (each such child resumed in turn)."""
    now_run, now = run, report
    for _ in range(MAX_RESUMED):
        step = exited_in(now_run, now)
        if step is None:
            break
        if step:
            report.exits[step] = now.returncode
        else:
            report.diagram_exit = now.returncode
        left = [name for name in now_run.tests if name not in now.tests and name != step]
        if not left:
            break
        now_run = dataclasses.replace(run, tests=left, diagram=False, early=None)
        now = again(now_run)
        _merge(report, now)
    return report


def _merge(report: ChildReport, later: ChildReport) -> None:
    """Take ``later``'s records of the tests left into ``report``, with what forfeits them all
    (a tampered channel, a refused sandbox, what its sentinel blocked) and a timeout it met."""
    report.tests.update(later.tests)
    report.tampered = report.tampered or later.tampered
    report.refused = report.refused or later.refused
    report.timed_out = report.timed_out or later.timed_out
    report.touched += [touch for touch in later.touched if touch not in report.touched]
    if not later.done and later.returncode is not None:
        report.returncode = later.returncode  # what the tests it left silent are told
