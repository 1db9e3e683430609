"""A stub left below the student's own definition of the same function.

A first-week slip: the student writes ``second_backward_error`` above the stub and leaves the
stub's ``def second_backward_error(...): raise NotImplementedError(...)`` below it.  Python
binds the name to the later definition, so the stub is what the tests call; "still raises
NotImplementedError: fill in second_backward_error" sends the student to write again what they
wrote.  The file's syntax tree shows both definitions: the error is told as the stub replacing
theirs, with both lines.
"""

from __future__ import annotations

import ast

from grader.i18n import _
from grader.judge.source_tree import source_tree
from grader.sandbox.child.wire import ErrorRecord


def _definitions(source: str) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The module-level function definitions of ``source``, by name, in the source's order
    (none where it does not parse, ``source_tree``: the import error, or the depth, is told then)."""
    tree = source_tree(source)
    if tree is None:
        return {}
    found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(node.name, []).append(node)
    return found


def _only_raises(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the definition's body, past its docstring and comments, only raises NotImplementedError."""
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Raise):
        return False
    raised = body[0].exc
    called = raised.func if isinstance(raised, ast.Call) else raised
    return isinstance(called, ast.Name) and called.id == "NotImplementedError"


def stub_over_own(source: str | None, error: ErrorRecord) -> tuple[int, int] | None:
    """The lines of the student's definition and of the stub's, where ``error``, a stub's
    NotImplementedError, was raised by the last module-level definition of its function, a stub,
    and an earlier definition of that name is not one; None otherwise."""
    function, line = error["function"], error["line"]
    if source is None or error["type"] != "NotImplementedError" or not function or not line:
        return None
    defined = _definitions(source).get(function, [])
    last = defined[-1] if defined else None
    if last is None or not last.lineno <= line <= (last.end_lineno or last.lineno) or not _only_raises(last):
        return None
    own = next((d for d in reversed(defined[:-1]) if not _only_raises(d)), None)
    return None if own is None else (own.lineno, last.lineno)


def told(file: str, function: str, own: str, stub: str) -> str:
    """The sentence: ``function`` defined twice in ``file``, at the lines named ``own`` and ``stub``."""
    return _("{file} defines {function} twice, at {own} and at {stub}: Python keeps the later definition, the "
             "stub that raises NotImplementedError, in place of yours, so your {function} never runs; delete the "
             "stub", file=file, function=function, own=own, stub=stub)
