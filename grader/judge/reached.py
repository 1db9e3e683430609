"""Why no test is scored when a submission reached for grading's internals, and the instructor's
flag on such a run, in the student's language: the first place its source names one
(``grader.sandbox.reach``), else what the child's sentinel blocked while it ran."""

from __future__ import annotations

from grader.i18n import N_, _, sentences
from grader.judge.explain import LineNames, line_named
from grader.judge.touches import TOUCHED, refused_touch
from grader.sandbox.child import wire
from grader.sandbox.reach import TOO_DEEP
from grader.sandbox.run import ChildReport
from grader.sandbox.written_out import WRITTEN_OUT


_USED_AS_NOT_ALLOWED = {
    "__import__": N_("{file} uses __import__ ({line}): a submission may call it only as "
                     "__import__(\"name\"), with a module's name written out, and not for os, sys or "
                     "inspect, so no test is scored. Write an import statement instead."),
    **dict.fromkeys(WRITTEN_OUT[1:], N_("{file} uses {name} ({line}): a submission may call it only "
                                        "with attribute names written out that do not start with _ "
                                        "({name}(\"data\")), so no test is scored.")),
}


def reached(report: ChildReport, display: str, names: LineNames | None = None) -> str | None:
    """Why no test is scored when the submission reached for grading's internals: the first
    place its source names one (``grader.sandbox.reach``), else the first thing the child's
    sentinel blocked while it ran; None when it did neither.  Written for a path before its verb
    (``{file} imports``): a notebook's Chinese name takes no space after it (``sentences``)."""
    said = _reached(report, display, names)
    return None if said is None else sentences([said])


def _reached(report: ChildReport, display: str, names: LineNames | None) -> str | None:
    """``reached``'s sentence before ``sentences`` joins it to the path (each case returns its own)."""
    if report.reached:
        first = report.reached[0]
        if first.touch is wire.Touch.ENGINE:
            return _("{file} imports {name} ({line}), the course's engine: this stage asks for an "
                     "engine of your own, written in this file, so no test is scored.",
                     file=display, name=first.name, line=line_named(first.line, names))
        if first.imported:
            return _("{file} imports {name} ({line}), which a submission may not import: through it, "
                     "code can reach {what}, which the grader observes through, so no test is scored. "
                     "Remove the import (a debugger or a doctest run left in counts too).",
                     file=display, name=first.name, what=_(TOUCHED[first.touch]), line=line_named(first.line, names))
        if first.name in _USED_AS_NOT_ALLOWED:  # a call the source makes, told by what it may not be
            return _(_USED_AS_NOT_ALLOWED[first.name], file=display, name=first.name, line=line_named(first.line, names))
        if first.name == TOO_DEEP:  # the parent's reading stopped: no name, no place is known
            return _("{file} holds an expression nested deeper than the grader can read (very many operations "
                     "chained or nested in one statement): what its code names cannot be checked, so no test is "
                     "scored", file=display)
        if first.touch is wire.Touch.MACHINE:  # nothing the grader observes through: outside the sandbox
            return _("{file} reaches for {what} ({name}, {line}): no exercise needs them, so no test is scored",
                     file=display, what=_(TOUCHED[first.touch]), name=first.name, line=line_named(first.line, names))
        return _("{file} reaches for {what} ({name}, {line}): no exercise needs them and the "
                 "grader observes through them, so no test is scored",
                 file=display, what=_(TOUCHED[first.touch]), name=first.name,
                 line=line_named(first.line, names))
    if report.touched:
        return _("{file} tried to reach {what} while running{at}: the grader stopped it, and no test is "
                 "scored", file=display, what=_(TOUCHED[report.touched[0]]),
                 at=_refused_at(report, report.touched[0], names))
    return None


def _refused_at(report: ChildReport, touch: wire.Touch, names: LineNames | None) -> str:
    """Where the sandbox refused ``touch`` with an error the submission let through: " (line 140)"
    at its import, " (in backprop, line 113)" in a test; "" where no error says so (one its own
    code caught, or a flag with no refusal raised)."""
    errors = [report.import_error, *(record["error"] for record in report.tests.values())]
    for error in errors:
        if error is None or error["type"] != "PermissionError" or not error["line"]:
            continue
        if refused_touch(error["message"]) is touch:
            line = line_named(error["line"], names)
            function = error["function"]  # a top level's "<module>" is no function to name
            return (_(" (in {function}, {line})", function=function, line=line) if function not in (None, "<module>")
                    else _(" ({line})", line=line))
    return ""


def flagged(report: ChildReport, names: LineNames | None = None) -> str | None:
    """The instructor's note on a run that reached for grading's internals, or tampered with
    the grader's pipe; None for a run that did neither."""
    if report.reached and all(r.imported for r in report.reached) and not (report.touched or report.tampered):
        modules = [_("{name} ({line})", name=r.name, line=line_named(r.line, names)) for r in report.reached]
        return _("flagged for the instructor: imports a module a submission may not import: {modules}",
                 modules="; ".join(modules))  # a debugger left in, perhaps: it reached for nothing
    if [r.name for r in report.reached] == [TOO_DEEP] and not (report.touched or report.tampered):
        return _("flagged for the instructor: holds an expression nested deeper than the grader reads, "
                 "so what its code names was not checked")  # it reached for nothing the grader saw
    places = [_("imports {name} ({line})", name=r.name, line=line_named(r.line, names)) if r.imported else
              _("{name} called in a way a submission may not ({line})", name=r.name, line=line_named(r.line, names))
              if r.name in _USED_AS_NOT_ALLOWED else
              _("an expression nested deeper than the grader reads") if r.name == TOO_DEEP else
              _("{what} ({name}, {line})", what=_(TOUCHED[r.touch]), name=r.name, line=line_named(r.line, names))
              for r in report.reached]
    places += [_("{what} (caught while running)", what=_(TOUCHED[t])) for t in report.touched]
    if report.tampered:
        places.append(_(TOUCHED[wire.Touch.WIRE]))
    if not places:
        return None
    return _("flagged for the instructor: reached for grading's internals: {places}",
             places="; ".join(places))
