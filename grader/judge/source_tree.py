"""The syntax tree of a submission's source, parsed once for every rule of the judge that reads it.

A test's error is explained by several rules that read the file (a function bound again, a name a
handler deleted, a name of ``sys`` rebound), each of every failing test of the run: one cached
parse serves them all.  A file that does not parse (its import error is told then), or one nested
past what the parser takes, gives None.  The tree is shared: a rule reads it and never changes it.
"""

from __future__ import annotations

import ast
import functools


@functools.lru_cache(maxsize=4)
def source_tree(source: str) -> ast.Module | None:
    """``source`` parsed, or None where it does not parse."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
