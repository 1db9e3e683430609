"""A function the tests call that the file does not define, where it defines one of a name close to it.

``grad_warnings`` for ``grad_warning``, ``backprob`` for ``backprop``: the test's lookup fails with
"module has no attribute", told as the name the file does not define; the file's own near miss,
read from its syntax tree, says which of its names was meant.
"""

from __future__ import annotations

import ast
import difflib
import re
from typing import Callable

from grader.i18n import _
from grader.judge.source_tree import source_tree
from grader.sandbox.child.wire import ErrorRecord

_MISSING = re.compile(r"module 'ex\d\d_\w+' has no attribute '(?P<name>\w+)'")  # the probe's lookup in the module
_DEFINED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def near_name_told(source: str | None, error: ErrorRecord, named: Callable[[int], str]) -> str:
    """What follows the sentence of ``error``, a name the test looked up in the file and did not find,
    when the file's top level defines one close to it (its line): "" otherwise.  ``named`` names a
    line of the file."""
    found = _MISSING.fullmatch(error["message"] or "") if error["type"] == "AttributeError" else None
    tree = source_tree(source) if found is not None and source is not None and not error["line"] else None
    if tree is None or found is None:
        return ""
    defined = {node.name: node.lineno for node in tree.body if isinstance(node, _DEFINED)}
    close = difflib.get_close_matches(found["name"], list(defined), n=1, cutoff=0.8)
    if not close:
        return ""
    return _("; the file defines {close} at {line}, a name close to it", close=close[0], line=named(defined[close[0]]))
