"""The syntax tree of a submission's source, parsed once for every rule of the judge that reads it.

A test's error is explained by several rules that read the file (a function bound again, a stub
left below the student's own definition, a name a handler deleted, a name of ``sys`` rebound, a
module reloaded), each of every failing test of the run: one cached parse serves them all.  A file
that does not parse (its import error is told then), or one nested past what the parser takes
(``RecursionError``; the parent's reading refuses it as nested deeper than it reads, ``reach``),
gives None: no rule reads anything into it, and the run is told by what it did.  The tree is
shared: a rule reads it and never changes it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.lru_cache(maxsize=4)
def source_tree(source: str) -> ast.Module | None:
    """``source`` parsed, or None where it does not parse (``SystemError``: CPython 3.11's "AST
    constructor recursion depth mismatch" of a parse nested deep while another thread parsed)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return None


def file_tree(path: Path | None) -> ast.Module | None:
    """The file ``path`` read as UTF-8 text, as the judge reads the source it explains with
    (``grading``), and parsed by ``source_tree``; None where it cannot be read or parsed."""
    try:
        source = path.read_text(encoding="utf-8", errors="replace") if path is not None else None
    except OSError:
        return None
    return None if source is None else source_tree(source)
