"""A name the file imports (``micrograph``, or ``nn`` from it) that a later top-level statement binds
to something else.

A demo at the bottom of the file (``nn = nn.Linear(2, 1)``, ``for micrograph in cases:``) leaves the
name on what that line bound; a function the tests call then looks an attribute up on it
(``micrograph.add``) and raises "AttributeError: 'str' object has no attribute 'add'", which names
neither the name nor the line that bound it again.  The file's syntax tree shows the import and the
later binding: the error is told with both lines.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import Callable

from grader.i18n import _
from grader.judge.source_tree import source_tree
from grader.sandbox.child.wire import ErrorRecord

_NO_ATTRIBUTE = re.compile(r"'[\w.]+' object has no attribute '(?P<attribute>\w+)'")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _names(target: ast.expr | None) -> set[str]:
    """The names a target binds: ``x``, each of ``x, (y, *z)``; none for ``x.a`` or ``x[0]``."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_names(element) for element in target.elts))
    return _names(target.value) if isinstance(target, ast.Starred) else set()


def _bound_by(node: ast.stmt) -> set[str]:
    """The names a top-level statement that is no import binds as it runs."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return set().union(*(_names(target) for target in node.targets))
    if isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor)) or isinstance(node, ast.AnnAssign) and node.value:
        return _names(node.target)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return set().union(*(_names(item.optional_vars) for item in node.items))
    return set()


@functools.lru_cache(maxsize=4)
def shadowings(source: str) -> dict[str, tuple[int, int]]:
    """The names ``source`` imports at its top level that a later top-level statement binds again,
    by name: (the line of the last import of it, the line of the last statement binding it after)."""
    tree = source_tree(source)
    imported: dict[str, int] = {}
    found: dict[str, tuple[int, int]] = {}
    for node in tree.body if tree is not None else []:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                imported[name] = node.lineno
                found.pop(name, None)
            continue
        for name in _bound_by(node) & imported.keys():
            found[name] = (imported[name], node.lineno)
    return found


def _looked_up_at(tree: ast.Module, line: int, names: set[str], attribute: str) -> str | None:
    """The one name among ``names`` whose ``.attribute`` an expression at ``line`` looks up, as the
    module's global: not where a function around the line has a parameter or local of that name."""
    looked = {node.value.id for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == attribute
              and isinstance(node.value, ast.Name) and node.value.id in names
              and node.lineno <= line <= (node.end_lineno or node.lineno)}
    for function in (node for node in ast.walk(tree) if isinstance(node, _FUNCTIONS)
                     and node.lineno <= line <= (node.end_lineno or node.lineno)):
        arguments = function.args
        looked -= {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                   *filter(None, (arguments.vararg, arguments.kwarg))]}
        looked -= {node.id for node in ast.walk(function) if isinstance(node, ast.Name)
                   and isinstance(node.ctx, ast.Store)}
    return looked.pop() if len(looked) == 1 else None


def shadowed_told(source: str | None, error: ErrorRecord, named: Callable[[int], str]) -> str:
    """What follows the sentence of ``error``, an attribute not found at a line of the file, when the
    name it was looked up on is one the file imports and a later top-level line binds again: both
    lines; "" otherwise.  ``named`` names a line of the file."""
    found = _NO_ATTRIBUTE.fullmatch(error["message"] or "") if error["type"] == "AttributeError" else None
    shadowed = shadowings(source) if found is not None and source is not None and error["line"] else {}
    tree = source_tree(source) if shadowed and source is not None else None
    name = _looked_up_at(tree, error["line"], set(shadowed), found["attribute"]) if tree and found else None
    if name is None or found is None:
        return ""
    imported, again = shadowed[name]
    return _("; {name} is imported at {imported}, and {again} binds the name {name} again after that import, so "
             "{name}.{attribute} looks {attribute} up on what that line gave", name=name, imported=named(imported),
             again=named(again), attribute=found["attribute"])
