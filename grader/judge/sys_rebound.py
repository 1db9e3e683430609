"""A name of ``sys`` the submission bound again, named with its line.

The child compares every name of ``sys`` after each step (``grader.sandbox.child.seal``), but
those the standard library or a student's habit rebinds (``SYS_REBOUND``): ``sys`` holds what
grading calls (``sys.audit``, ``sys.setprofile``), and a name bound again there stops the run.  The
child says only that a name of ``sys`` changed (``Touch.SYS``); the source says which one, and
where: ``sys.maxsize = 10`` is told as itself, not as a reach for what grading keeps in ``sys``.
"""

from __future__ import annotations

import ast
import functools

from grader.i18n import _, sentences
from grader.judge.explain import LineNames, line_named
from grader.judge.source_tree import source_tree
from grader.sandbox.child.seal import SYS_REBOUND
from grader.sandbox.child.wire import Touch
from grader.sandbox.run import ChildReport


def _aliases(tree: ast.AST) -> set[str]:
    """The names the source binds to the module ``sys`` (``import sys``, ``import sys as s``)."""
    return {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names if alias.name == "sys"}


@functools.lru_cache(maxsize=4)
def bound_again(source: str) -> tuple[tuple[str, int], ...]:
    """The names of ``sys`` outside ``SYS_REBOUND`` that the source assigns or deletes
    (``sys.maxsize = 10``, ``del sys.ps3``), with their lines, in the source's order.  Cached:
    every test of a stopped run asks it of the same file."""
    tree = source_tree(source)
    if tree is None:
        return ()
    names = _aliases(tree)
    found = [(node.attr, node.lineno) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
             and isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Name)
             and node.value.id in names and node.attr not in SYS_REBOUND]
    return tuple(sorted(found, key=lambda pair: pair[1]))


def told(report: ChildReport, display: str, names: LineNames | None, source: str | None) -> str | None:
    """The sentence for a run stopped because a name of ``sys`` changed, where the source binds one
    again; None otherwise (``reached.reached`` says it then)."""
    if report.reached or not report.touched or report.touched[0] is not Touch.SYS or source is None:
        return None
    found = bound_again(source)
    if not found:
        return None
    name, line = found[0]
    return sentences([_("{file} binds sys.{name} again ({line}): the grader keeps the names of sys as they were while it "
             "runs your code, but for a few that the standard library or common code rebinds (such as "
             "sys.stdout, sys.argv and sys.path), so it stopped the run, and no test is scored", file=display, name=name,
             line=line_named(line, names))])
