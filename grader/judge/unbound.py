"""A name read after the ``except ... as <name>:`` block that bound it.

A student keeps the caught exception under the handler's name and reads it after the block:
``except RuntimeError as error: pass`` then ``return error``.  Python deletes the name a handler
binds when the handler ends (so the traceback the exception holds does not keep the frame
alive), and the read raises UnboundLocalError, or NameError from an inner function or at module
level: Python's message names the variable but not why it has no value.  The file's syntax tree
shows the handler that binds the name in the scope the read looks it up in: the error is told
with that handler.
"""

from __future__ import annotations

import ast
import re
from typing import Callable

from grader.i18n import _
from grader.judge.source_tree import source_tree
from grader.sandbox.child.wire import ErrorRecord

# Python's messages for a name with no value, by the scope it is looked up in.
_LOCAL = re.compile(r"cannot access local variable '(?P<name>\w+)' where it is not associated with a value"
                    r"|local variable '(?P<old>\w+)' referenced before assignment")
_FREE = re.compile(r"cannot access free variable '(?P<name>\w+)' where it is not associated with a value"
                   r" in enclosing scope|free variable '(?P<old>\w+)' referenced before assignment in enclosing scope")
_GLOBAL = re.compile(r"name '(?P<name>\w+)' is not defined")

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope``'s own body, not those of a function or class defined in it."""
    found, todo = [], list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _enclosing(tree: ast.Module, line: int) -> list[ast.AST]:
    """The functions whose lines hold ``line``, innermost first, then the module."""
    chain: list[ast.AST] = [tree]
    node: ast.AST = tree
    while True:
        inner = [child for child in _own_nodes(node) if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and child.lineno <= line <= (child.end_lineno or child.lineno)]
        if len(inner) != 1:
            return chain[::-1]
        node = inner[0]
        chain.append(node)


def _handler(scope: ast.AST, name: str, line: int) -> ast.ExceptHandler | None:
    """The ``except ... as name`` handler of ``scope`` that the read at ``line`` follows (the last
    ending before it, else the first), when no handler of that name holds the line and no ``del name``
    is in the scope; None otherwise."""
    nodes = _own_nodes(scope)
    if any(isinstance(node, ast.Delete) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
           for node in nodes):
        return None
    handlers = sorted((node for node in nodes if isinstance(node, ast.ExceptHandler) and node.name == name),
                      key=lambda node: node.lineno)
    if any(h.lineno <= line <= (h.end_lineno or h.lineno) for h in handlers):
        return None
    before = [h for h in handlers if (h.end_lineno or h.lineno) < line]
    return before[-1] if before else (handlers[0] if handlers else None)


def _scopes_read(kind: str, message: str, chain: list[ast.AST]) -> tuple[str, list[ast.AST]] | None:
    """The name Python's message names, and the scopes it was looked up in: the innermost function
    for a local, the enclosing functions for a free variable, the module for a global."""
    for pattern, scopes in ((_LOCAL, chain[:1]), (_FREE, chain[1:-1]), (_GLOBAL, chain[-1:])):
        found = pattern.fullmatch(message)
        if found is not None and (kind == "UnboundLocalError") == (pattern is _LOCAL):
            return found["name"] or found["old"], scopes
    return None


def deleted_told(source: str | None, error: ErrorRecord, named: Callable[[int], str]) -> str:
    """What follows the sentence of ``error`` when it is a read, at a line of the file, of a name whose
    only value in the scope read came from an ``except ... as`` handler that ended before: the handler,
    and that Python deletes its name when it ends; "" otherwise.  ``named`` names a line of the file."""
    tree = source_tree(source) if source and error["line"] and error["type"] in ("UnboundLocalError", "NameError") else None
    read = _scopes_read(error["type"], error["message"] or "", _enclosing(tree, error["line"])) if tree else None
    if read is None:
        return ""
    name, scopes = read
    handler = next((h for h in (_handler(scope, name, error["line"]) for scope in scopes) if h is not None), None)
    if handler is None:
        return ""
    caught = ast.unparse(handler.type) if handler.type is not None else ""
    return _("; the name {name} is bound by `except {caught} as {name}:` at {line}, and Python deletes the name a "
             "handler binds when its except block ends: after that block {name} has no value until a line assigns "
             "it again", name=name, caught=caught, line=named(handler.lineno))
