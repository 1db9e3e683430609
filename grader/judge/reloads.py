"""A submission that reloads a module with ``importlib.reload``: a notebook's habit while the
student edited the engine (``%autoreload``, ``importlib.reload(micrograph)``), refused as any
import of ``importlib`` is (``grader.sandbox.reach``), and told as what it is: nothing needs
reloading when graded, the grader runs the code once, fresh.  The instructor's note names the
reload too, where the import and what the reload touched as it ran are all the run reached."""

from __future__ import annotations

import ast
from pathlib import Path

from grader.i18n import _
from grader.judge.explain import LineNames, line_named
from grader.judge.source_tree import file_tree
from grader.judge.touches import TOUCHED
from grader.sandbox.child import wire
from grader.sandbox.run import ChildReport

_MODULE = "importlib"


def reload_line(submission: Path | None) -> int | None:
    """The line of the first ``importlib.reload(...)`` (or ``reload(...)`` imported from
    importlib) in the file the child ran, read, never run; None when it has none."""
    tree = file_tree(submission)  # parsed once with the other rules that read it (``source_tree``)
    nodes = list(ast.walk(tree)) if tree is not None else []
    modules = {a.asname or a.name for n in nodes if isinstance(n, ast.Import) for a in n.names if a.name == _MODULE}
    functions = {a.asname or a.name for n in nodes if isinstance(n, ast.ImportFrom) and n.module == _MODULE
                 for a in n.names if a.name == "reload"}
    lines = [n.lineno for n in nodes if isinstance(n, ast.Call) and (
        isinstance(n.func, ast.Attribute) and n.func.attr == "reload" and isinstance(n.func.value, ast.Name)
        and n.func.value.id in modules or isinstance(n.func, ast.Name) and n.func.id in functions)]
    return min(lines) if lines else None


def _only_reload(report: ChildReport, line: int | None) -> bool:
    """Whether all the run reached is importlib imported and, as it ran, what a reload touches."""
    return (line is not None and bool(report.reached) and not report.tampered
            and all(r.imported and r.name.split(".")[0] == _MODULE for r in report.reached)
            and all(t is wire.Touch.OBSERVER for t in report.touched))


def reload_refused(report: ChildReport, display: str, line: int | None, names: LineNames | None) -> str | None:
    """Why no test is scored, for a run whose only reach is a reload; None for any other run."""
    if not _only_reload(report, line):
        return None
    return _("{file} imports importlib ({line}) to reload a module (importlib.reload, {reload}): a submission may "
             "not import importlib, so no test is scored. Nothing needs reloading when graded, since the grader "
             "runs your code once, fresh: delete the reload and the import (in a notebook, with its %autoreload "
             "lines)", file=display, line=line_named(report.reached[0].line, names),
             reload=line_named(line, names))


def reload_flag(report: ChildReport, line: int | None, names: LineNames | None) -> str | None:
    """The instructor's note for a run whose only reach is a reload; None for any other run."""
    if not _only_reload(report, line):
        return None
    caught = _("; caught while running: {what}, as a reload of micrograph does",
               what=_(TOUCHED[wire.Touch.OBSERVER])) if report.touched else ""
    return _("flagged for the instructor: imports importlib ({line}) and reloads a module with it ({reload}){caught}",
             line=line_named(report.reached[0].line, names), reload=line_named(line, names), caught=caught)
