"""A function of the student's whose name a later top-level line binds to something else.

A notebook's "try it" cell writes ``zero_grad = zero_grad([w, x])``, keeping what the call returned
(None) under the function's name; a file's demo at its bottom does the same.  The tests then call
None: "TypeError: 'NoneType' object is not callable", which names neither the name nor the line
that made it None, and, raised in the test's own call, reads as an error in what the code
returned.  The file's syntax tree shows the ``def`` and the later assignment to its name: the
error is told with both lines.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import Callable

from grader.i18n import _
from grader.judge.source_tree import source_tree
from grader.sandbox.child.wire import ErrorRecord

_NOT_CALLABLE = re.compile(r"'(?P<type>[\w.]+)' object is not callable")


_NO_FUNCTION = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.BinOp, ast.UnaryOp, ast.BoolOp,
                ast.Compare, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp, ast.JoinedStr)


def _bound_names(node: ast.stmt) -> set[str]:
    """The names a top-level assignment binds to what is surely no function: what the function of
    that name returned (``zero_grad = zero_grad([w, x])``), or a literal, a sum, a comprehension.
    A decorator's or a lambda's result (``f = wrapped(f)``) may be a function: not counted."""
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
        return set()
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    named = {target.id for target in targets if isinstance(target, ast.Name)}
    value = node.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return named & {value.func.id}
    return named if isinstance(value, _NO_FUNCTION) else set()


@functools.lru_cache(maxsize=4)
def rebindings(source: str) -> dict[str, tuple[int, int]]:
    """The module-level functions of ``source`` whose name a later top-level statement binds again to
    what is no function (``_bound_names``), by name: (the line of the last ``def``, the line of the
    last statement binding it after it)."""
    tree = source_tree(source)
    if tree is None:
        return {}
    defined: dict[str, int] = {}
    found: dict[str, tuple[int, int]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined[node.name] = node.lineno
            found.pop(node.name, None)
            continue
        for name in _bound_names(node) & defined.keys():
            found[name] = (defined[name], node.lineno)
    return found


def _called_at(source: str, line: int, names: set[str]) -> str | None:
    """The one name among ``names`` that a call at line ``line`` of ``source`` calls."""
    tree = source_tree(source)  # parsed: only asked where ``rebindings`` found a name in it
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id in names and node.lineno <= line
              <= (node.end_lineno or node.lineno)} if tree is not None else set()
    return called.pop() if len(called) == 1 else None


def rebound_told(source: str | None, error: ErrorRecord, named: Callable[[int], str]) -> str | None:
    """The sentence for ``error``, a call of something no function ("'NoneType' object is not
    callable"), where the name called is a function of the file that a later top-level line bound
    again: raised in the test's own call (no line), when only one function is so rebound, or at a
    line of the student's code that calls it; None otherwise.  ``named`` names a line of the file."""
    found = _NOT_CALLABLE.fullmatch(error["message"] or "") if error["type"] == "TypeError" else None
    rebound = rebindings(source) if found is not None and source is not None else {}
    if not rebound:
        return None
    if not error["line"]:
        if len(rebound) != 1:
            return None
        name = next(iter(rebound))
        defined, again = rebound[name]
        return _("the test called {name}, but {name} is no longer the function defined at {defined}: {again} binds "
                 "the name {name} again, after that def, to what that line gives (of type {type} here), so the call "
                 "raised TypeError: {message}", name=name, defined=named(defined), again=named(again),
                 type=found["type"], message=error["message"])
    name = _called_at(source, error["line"], set(rebound)) if error["function"] else None
    if name is None:
        return None
    defined, again = rebound[name]
    return _("your code raised TypeError at {line} (in {function}): {message}; {name} is no longer the function "
             "defined at {defined} when it is called: {again} binds the name {name} again, after that def, to what "
             "that line gives (of type {type} here)", line=named(error["line"]), function=error["function"],
             message=error["message"], name=name, defined=named(defined), again=named(again), type=found["type"])
