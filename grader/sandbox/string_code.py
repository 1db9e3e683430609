"""Strings a submission's source holds that run as code or look attributes up: an annotation
written as a string (evaluated by ``inspect.signature(f, eval_str=True)``) and a format string's
replacement fields (formatted by the standard library with the real ``getattr``). Apart from the
reading of the source itself (``reach``), which reads what these give as it reads code."""

from __future__ import annotations

import _string
import ast

from grader.sandbox.child.formatting import fields
from grader.sandbox.child.internals import HIDDEN_DUNDERS, NAMES


def field_attributes(text: str) -> list[str]:
    """The attributes the replacement fields of ``text``, read as a format string, name that
    the submission's ``getattr`` would refuse whatever they are looked up on (grading's
    internals, ``__dict__``): a string handed to the standard library's own formatting
    (``logging``'s ``style="{"``) is formatted with the real ``getattr``."""
    found = []
    for field in fields(text):
        try:
            _first, rest = _string.formatter_field_name_split(field)
            names = [key for is_attribute, key in rest if is_attribute]
        except ValueError:
            continue
        found += [n for n in names if type(n) is str and (n in NAMES or n in HIDDEN_DUNDERS)]
    return found


def annotations_as_code(nodes: list[ast.AST]) -> list[ast.AST]:
    """Each annotation written as a string, parsed as the expression it is: what evaluates
    annotations (``inspect.signature(f, eval_str=True)``, ``functools.singledispatch``'s
    ``register``) runs it with the module's builtins (``"exec(source)"`` ran code the parent
    never read), so it is read as code, at its line.  A string that is no expression is text."""
    found: list[ast.AST] = []
    for node in nodes:
        kind = type(node)
        if kind is ast.arg or kind is ast.AnnAssign:
            notes = [node.annotation]  # type: ignore[attr-defined]
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            notes = [node.returns]  # type: ignore[attr-defined]
        else:
            continue
        for note in notes:
            if isinstance(note, ast.Constant) and type(note.value) is str:
                try:
                    parsed = ast.parse(note.value.strip(), mode="eval")
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                found.append(ast.increment_lineno(parsed, note.lineno - 1))
    return found
