"""Turn what the child reported about an error, or how it ended, into one sentence a student can
act on.  Limits are named with the numbers of the run's own ``Limits``."""

from __future__ import annotations

import builtins
import functools
import re
from pathlib import Path
from typing import Callable

from grader.i18n import N_, _
from grader.judge import stages
from grader.judge.caused_errors import LINED, WITH_CAUSE
from grader.judge.copy_timeout import copy_timed_out
from grader.judge.given_refused import given_refused
from grader.judge.messages import probe_said, torch_explained
from grader.judge.notebook_raised import NO_MODULE, input_hint, notebook_raised, read_nothing
from grader.judge.touches import refusal_said
from grader.judge.typed_characters import typed_character
from grader.judge.status import ERROR, TIMEOUT, Status
from grader.sandbox.child import wire
from grader.sandbox.child.wire import ErrorRecord
from grader.sandbox.records import signal_name
from grader.sandbox.run import ChildReport
from grader.spec.build_checks import STAGE_IDS
from grader.spec.limits import Limits, size

# How a line of the graded file is named: "line 12", or "cell 3, line 2" for a notebook.
LineNames = Callable[[int], str]


def line_named(line: int, names: LineNames | None) -> str:
    """A line of the graded file as feedback names it."""
    return names(line) if names else _("line {line}", line=line)


def _where(error: ErrorRecord, names: LineNames | None = None) -> str:
    if error["function"] and error["line"]:
        return _(" (in {function}, {line})", function=error["function"], line=line_named(error["line"], names))
    return _(" ({line})", line=line_named(error["line"], names)) if error["line"] else ""


# A build-track stub's "ex16: Value.__add__", or an earlier stage's check "ex16: what failed".
_STAGE_PART = re.compile(r"(ex\d\d): (.+)", re.DOTALL)
EARLIER_STAGE = "EarlierStage"  # grader.spec.build.EarlierStage, raised by a probe
THIS_STAGE = "ThisStage"  # grader.spec.build.ThisStage: this stage's code breaks an earlier one's program
MISSING_METHOD = "MissingMethod"  # grader.spec.build.MissingMethod: its message says it all
GIVEN_REFUSED = "GivenRefused"  # grader.spec.given.GivenRefused: a given function called as it cannot run

_SOFT_LIMITS = (  # the child's message for each share of time (``child.main``), and what it says
    (re.compile(r"timed out after (\S+) s"), N_("timed out after {seconds} s")),
    (re.compile(r"used more than (\S+) s of CPU time"), N_("used more than {seconds} s of CPU time")),
    (re.compile(r"the code drawn ran more than (\S+) s"),
     N_("your code ran more than {seconds} s while the diagram was made")),
    (re.compile(r"the code drawn used more than (\S+) s of CPU time"),
     N_("your code used more than {seconds} s of CPU time while the diagram was made")),
)


TOP_LEVEL = "<module>"  # the caller of a function a file's top level called (``child.located``)
# A probe's time spent in a call the file's top level made: the grader imports a file again (a fresh
# copy, to tell state kept between calls), and its top level runs again there.
_AT_TOP_LEVEL = N_(": {function} was called by your file's top level, which runs again each time the grader imports "
                   "the file (more than once): a call kept at the top level, such as a demo, belongs under "
                   "if __name__ == \"__main__\":")
_IN_A_CELL = N_(": {function} was called by a cell's own code, outside any function, which runs again each time the "
                "grader runs the cells (more than once): delete a call such as a demo before handing the notebook in, "
                "or put it under if __name__ == \"__main__\":")  # a notebook's: it has no top level to the student


_IMPORT_CPU = re.compile(r"the import used more than (\S+) s of CPU time")  # the import's share (``child.main``)
_IMPORT_CLOCK = re.compile(r"the import ran more than (?P<seconds>\d+(?:\.\d+)?) s, "
                           r"at most (?P<cpu>\d+(?:\.\d+)?) s of it on the CPU")


def _soft_limit(message: str) -> str:
    """The child's message for a soft time limit (``child.main``), in the student's language."""
    for pattern, said in _SOFT_LIMITS:
        found = pattern.fullmatch(message)
        if found is not None:
            return _(said, seconds=found.group(1))
    return message


def needs_earlier_stage(error: ErrorRecord, exercise: str | None) -> bool:
    """Whether a probe met a build-track stub of another stage than ``exercise``: that stage's
    NotImplementedError("ex16: Value.__add__")."""
    stage = _STAGE_PART.fullmatch(error["message"] or "")
    return (exercise is not None and error["type"] == "NotImplementedError" and stage is not None
            and stage.group(1) != exercise)


def earlier_stage_stub(errors: list[ErrorRecord], display: str, limits: Limits, exercise: str) -> str:
    """When every test met NotImplementedError: the sentence of the first that came from an
    earlier build-track stage's stub (paste that stage first), or "" when none did."""
    for error in errors:
        if needs_earlier_stage(error, exercise):
            return test_error(error, display, limits, exercise=exercise)
    return ""


# A name the probe looked up in the submission's module (``exNN_topic``) and did not find.
_MISSING = re.compile(r"module 'ex\d\d_\w+' has no attribute '(?P<name>\w+)'")
# Python's own call of a context manager's method failed (a wrong signature): no line of the file raised it
_WITH_CALL = re.compile(r"(?P<name>\w+)\.__(?P<method>enter|exit)__\(\) takes .+ given")
# Python refused a call for its arguments (no line of the file ran): ``f() takes 2 positional arguments ...``
_SIGNATURE = re.compile(r"(?P<name>\w+)\(\) (takes|missing|got an unexpected|got multiple) ")
_WITH_SAID = {"exit": N_("TypeError: {message} (raised when a `with {name}():` block ended: Python calls "
                         "{name}.__exit__ with the block's exception type, value and traceback, None each when "
                         "the block raised nothing)"),
              "enter": N_("TypeError: {message} (raised when a `with {name}():` block began: Python calls "
                          "{name}.__enter__ with no argument)")}


def test_error(error: ErrorRecord, display: str, limits: Limits,
               names: LineNames | None = None, exercise: str | None = None) -> str:
    """Why a probe failed to observe anything.  In the build track (``exercise`` given) a stub or
    a check of an earlier stage's part of the engine names that stage."""
    kind, message = error["type"], error["message"]
    told, words = WITH_CAUSE.get(kind) or LINED.get(kind) or (None, 0)
    if told is not None and len(message.split(" ", words - 1)) == words:  # words counted
        tell = functools.partial(test_error, display=display, limits=limits, names=names, exercise=exercise)
        return told(error, tell, functools.partial(line_named, names=names)) if kind in LINED else told(error, tell)
    if kind == GIVEN_REFUSED:
        return given_refused(error, functools.partial(line_named, names=names))
    stage = _STAGE_PART.fullmatch(message)
    if needs_earlier_stage(error, exercise) and stage:
        return _("this stage builds on {stage}: {file} still raises NotImplementedError in {part}, "
                 "{stage}'s part of the engine: paste your {stage} answer there first",
                 stage=stage.group(1), file=display, part=stage.group(2))
    if kind == "NotImplementedError" and stage:  # a stub's "exNN: name", not the engine's own refusal
        todo = error["function"] or message
        return _("{file} still raises NotImplementedError: fill in {todo}", file=display, todo=todo)
    if kind == EARLIER_STAGE and stage:
        return stages.earlier_stage(stage.group(1), display, stage.group(2), exercise, error, _where(error, names))
    if kind == THIS_STAGE and stage:
        return stages.this_stage(stage.group(1), stage.group(2), display, _where(error, names), error["function"])
    if kind == "MemoryError":
        return _("used more than {size} of memory{where}", size=size(limits.memory), where=_where(error, names))
    if kind == "SystemExit":
        return _("raised {call}{where}: return a value instead of exiting", call=message, where=_where(error, names))
    if kind in wire.TIMEOUTS:  # the child's soft limits on one probe
        return _timed_out(error, message, names)
    if kind == "RecursionError":
        return f"RecursionError: {message}{_where(error, names)}"
    if kind == wire.PROBE_ERROR:
        return _("could not observe the result: {why}", why=message)
    missing = _MISSING.fullmatch(message or "") if kind == "AttributeError" and not error["line"] else None
    if missing is not None:  # the probe looked the name up in the submission's module
        return _("{file} defines no {name}: the grader looks {name} up by that name, so define it "
                 "in your file under that exact name", file=display, name=missing.group("name"))
    if not error["line"] and error["function"]:  # a Function's node refused what its backward returned
        return _("the engine raised {kind} on what {function} returned: {message}", kind=kind,
                 function=error["function"], message=torch_explained(message))
    if not error["line"] and kind == MISSING_METHOD:  # Python refused an operator: the method named
        return probe_said(message)
    refused = _call_refused(message) if kind == "TypeError" and not error["line"] else None
    if refused is not None:
        return refused
    if not error["line"]:  # raised by the probe: its own message (a result of the wrong shape) is a msgid
        text = f"{kind}: {probe_said(message)}" if message else kind
        return text + _(" (raised while the test used what your code returned)")
    said = (f": {torch_explained(refusal_said(message))}" if message else "") + input_hint(kind, message) + \
        no_thread(kind, message) + not_there(kind, message) + _warning_raised(kind)
    if exercise in STAGE_IDS and error["function"]:
        return stages.raised_in_part(error, exercise, line_named(error["line"], names), said)
    if error["function"] and error["caller"]:
        return _("your code raised {kind} at {line} (in {function}, called from {caller}){said}",
                 kind=kind, line=line_named(error["line"], names), function=error["function"],
                 caller=error["caller"], said=said)
    if error["function"]:
        return _("your code raised {kind} at {line} (in {function}){said}", kind=kind,
                 line=line_named(error["line"], names), function=error["function"], said=said)
    return _("your code raised {kind} at {line}{said}", kind=kind, line=line_named(error["line"], names), said=said)


def not_there(kind: str, message: str | None) -> str:
    """What to add to Python's "No module named 'torch'" (at the top of the file or in a function): only
    micrograph and the standard library are where the file is graded, though torch or numpy may be
    installed where the student runs it; "" for any other error, or a package's missing module."""
    missing = _NO_TOP_MODULE.fullmatch(message or "") if kind == "ModuleNotFoundError" else None
    if missing is None or missing.group(1) == "micrograph":
        return ""
    return _(". The file is graded with micrograph and the standard library only: {module} is not there, so the "
             "code that imports it cannot stay in the file you hand in", module=missing.group(1))


def no_thread(kind: str, message: str | None) -> str:
    """What to add to Python's refusal of a thread (``threading.Thread(...).start()``): the child that
    grades the file may start no thread or process (``RLIMIT_NPROC``, the seccomp filter); "" for
    any other error."""
    if kind != "RuntimeError" or message != "can't start new thread":
        return ""
    return _(". The file is graded in a process that may start no thread or process, so the code that starts "
             "one cannot stay in the file you hand in")


def _warning_raised(kind: str) -> str:
    """Beside a built-in warning class raised (``raise UserWarning(...)``): the call it ended
    would go on where the warning is issued (``warnings.warn``), as PyTorch issues its own."""
    found = getattr(builtins, kind, None)
    if not (isinstance(found, type) and issubclass(found, Warning)):
        return ""
    return _(". {kind} is a warning's class, raised here as an error, which ended the call, where a warning issued "
             "with warnings.warn lets the call go on and return, as PyTorch's warnings do", kind=kind)


def _timed_out(error: ErrorRecord, message: str, names: LineNames | None) -> str:
    """A probe's share of the time ran out: where, or in the top level of a fresh copy (``copy_timeout``)."""
    limit, called = _soft_limit(message), error["caller"]
    if error["function"] == TOP_LEVEL and error["line"]:
        return copy_timed_out(limit, line_named(error["line"], names), called, names is not None)
    said = _(_AT_TOP_LEVEL if names is None else _IN_A_CELL, function=error["function"]) if called == TOP_LEVEL else ""
    return f"{limit}{_where(error, names)}{said}"


def _call_refused(message: str | None) -> str | None:
    """A TypeError Python raised on a call the test made, before any line of the file ran: a
    with statement calling the student's __enter__ / __exit__, or the student's function whose
    parameters differ from the statement's; None for any other."""
    with_call = _WITH_CALL.fullmatch(message or "")
    if with_call is not None:
        return _(_WITH_SAID[with_call["method"]], message=message, name=with_call["name"])
    signature = _SIGNATURE.match(message or "")
    if signature is not None:
        return _("the test's call of {name} raised TypeError: {message}: your {name} does not take the arguments "
                 "the statement's takes", name=signature["name"], message=message)
    return None


_NO_TOP_MODULE = re.compile(r"No module named '([^'.]+)'")  # a package's missing module ("x.y") is not told so


def import_error(error: ErrorRecord, display: str, limits: Limits,
                 names: LineNames | None = None, beside: Path | None = None) -> str:
    """Why the submission could not even be imported.  ``beside``, the folder the submitted
    file lies in, tells a module of the student's own (``from myhelpers import ...``) from one
    that does not exist: the file ran fine beside it, but is graded alone."""
    kind, message, line = error["type"], error["message"], error["line"]
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        typed = typed_character(message, line_named(line, names)) if line and kind == "SyntaxError" else None
        if kind == "TabError" and line:  # Python's message names no character, and an editor hides the tab
            return _("TabError at {line}: {message}. That line's indentation and the indentation of the lines above "
                     "it mix tabs and spaces: an editor shows a tab as a few spaces, Python does not read it so; "
                     "indent every line with spaces only", line=line_named(line, names), message=message)
        return typed or (_("{kind} at {line}: {message}", kind=kind, line=line_named(line, names), message=message)
                         if line else f"{kind}: {message}")
    if kind == "SystemExit":
        return _exited(display, message, _(" ({line})", line=line_named(line, names)) if line else "", names)
    if kind == "MemoryError":
        return _("used more than {size} of memory while being imported", size=size(limits.memory))
    if kind == wire.IMPORT_TIMEOUT:
        return _import_timeout(error, display, names)
    at = _(" ({line})", line=line_named(line, names)) if line else ""
    message = refusal_said(message)
    if names is not None:  # a notebook is not imported: its code cells run, top to bottom
        return notebook_raised(display, kind, at, message)
    said = _("{file} raised {kind} when imported{at}: {message}", file=display, kind=kind, at=at, message=message)
    if kind == "NameError" and message == "name 'get_ipython' is not defined":
        return said + _(". get_ipython() is IPython's, and a .py is graded as plain Python: Jupyter's \"Download as "
                        ".py\" writes a notebook's % and ! lines as get_ipython() calls; delete those lines, or hand "
                        "in the notebook (.ipynb) itself, whose % and ! lines the grader knows how to grade")
    if read_nothing(kind, message):
        return said + _(". input() reads nothing when graded: no one types, so it raises; write the value into the "
                        "file instead of asking for it, or put the code that asks under if __name__ == \"__main__\":")
    if no_thread(kind, message):
        return said + no_thread(kind, message)
    own = own_module(error, beside)
    if own is not None:
        return said + _(". Each exercise file is graded on its own, with micrograph and the standard library only: "
                        "{module} beside it cannot be imported there, so copy what it needs into the file itself",
                        module=own)
    return said + not_there(kind, message)


def _exited(display: str, call: str, at: str, names: LineNames | None) -> str:
    """The file exited while it was imported (``sys.exit()``, ``exit()``, a script's habit), at
    ``at``: no test could run after it.  A module's own checks belong under ``if __name__ ==
    "__main__":``, which runs when the file is run and not when it is imported, as the grader
    imports it; a notebook has no such place (its cells run as ``__main__``): the call goes."""
    if names is not None:
        return _("{file} raised {call} when its cells ran{at}: exiting stops the cells, so no test could run; "
                 "take the exit out of the notebook", file=display, call=call, at=at)
    return _("{file} raised {call} while being imported{at}: exiting ends the import, so no test could run; put "
             "the code you run yourself under if __name__ == \"__main__\":, which runs when you run the file and "
             "not when the grader imports it", file=display, call=call, at=at)


def _import_timeout(error: ErrorRecord, display: str, names: LineNames | None) -> str:
    """The import's share of the time ran out, at the line the top level ran: of CPU, or of the
    clock.  Said to have waited only when it used at most 1% of that time on the CPU (a sleep, a
    read): a loop on a busy machine gets more, and is told only the numbers."""
    message, line, function = error["message"] or "", error["line"], error["function"]
    where = (_where(error, names) if function != "<module>" else
             _(" ({line})", line=line_named(line, names)) if line else "")
    used = _IMPORT_CPU.fullmatch(message)
    if used is not None:
        return _("{file} used more than {seconds} s of CPU time while being imported{where}", file=display,
                 seconds=used.group(1), where=where)
    clock = _IMPORT_CLOCK.fullmatch(message)
    if clock is None:  # worded otherwise by the child: its numbers are not read, its text not shown untranslated
        return _("{file} ran out of its share of the time while being imported{where}", file=display, where=where)
    if float(clock["cpu"]) * 100 <= float(clock["seconds"]):
        return _("{file} was still being imported after {seconds} s{where}, having used at most {cpu} s of CPU "
                 "time: it waited for the rest of that time", file=display, where=where, **clock.groupdict())
    return _("{file} was still being imported after {seconds} s{where}, having used at most {cpu} s of CPU "
             "time by then", file=display, where=where, **clock.groupdict())


def own_module(error: ErrorRecord, beside: Path | None) -> str | None:
    """The student's own module (``myhelpers.py`` or a package folder) beside the submission that
    its import could not find, if that is what it missed."""
    found = NO_MODULE.match(error["message"] or "") if error["type"] == "ModuleNotFoundError" else None
    if found is None or beside is None:
        return None
    name = found.group(1)
    for own in (f"{name}.py", f"{name}/"):
        if (beside / own).exists():
            return own
    return None


def is_timeout(error: ErrorRecord) -> bool:
    """Whether a probe's error, or the import's, is its own share of the time running out."""
    return error["type"] in (wire.PROBE_TIMEOUT, wire.IMPORT_TIMEOUT)


def _crashed(sig: str) -> str:
    """How a child ended by the signal named ``sig`` (not the CPU limit's) is told."""
    if sig == "SIGSEGV":
        return _("crashed (SIGSEGV: an invalid memory access)")
    return _("was killed by {signal}", signal=sig)


def silence(report: ChildReport, test: str | None = None, *, drawing: bool = False) -> tuple[Status, str]:
    """(status, reason) for a test that never reported back (``test``, its name, where known), or for
    the diagram (``drawing``).  The step the submission's code ended its process in is told so: the
    tests after it ran in a child of their own (``grader.sandbox.resumed``)."""
    if report.refused:
        return ERROR, report.refused
    if report.tampered:
        return ERROR, _("the grader's channel was tampered with ({why})", why=report.tampered)
    exited = report.diagram_exit if drawing else report.exits.get(test or "")
    if exited is not None and exited < 0:  # a crash of the step's own (its C stack overflowed): the tests after it ran
        return ERROR, _crashed(signal_name(-exited))
    if exited is not None and drawing:
        return ERROR, _("your code exited with status {code} (os._exit, for instance) while the diagram's "
                        "graph was being built", code=exited)
    if exited is not None:
        return ERROR, _("your code exited with status {code} (os._exit, for instance) during this test",
                        code=exited)
    if report.timed_out:
        return TIMEOUT, _("timed out after {seconds} s", seconds=f"{report.limits.wall_seconds:g}")
    sig = report.signal
    if sig == "SIGXCPU":
        return TIMEOUT, _("used more than {seconds} s of CPU time", seconds=report.limits.cpu_seconds)
    if sig is not None:
        return ERROR, _crashed(sig)
    if not report.done and not report.imported:  # os._exit at import: no traceback, no line
        return ERROR, _("your code exited with status {code} while being imported (os._exit, for "
                        "instance), before any test ran", code=report.returncode)
    if not report.done:
        return ERROR, _("your code exited with status {code} (os._exit, for instance) before this "
                        "test reported", code=report.returncode)
    return ERROR, _("did not report")
