"""Python's built-ins a submission's module has in micrograph's versions, and Values its numbers hold.

``from micrograph import *`` binds, in the student's module, every name of ``micrograph.__all__``,
as ``from torch import *`` does: ``abs``, ``pow`` and ``sum`` among them, so that the module's
``sum(grads)`` is micrograph's, which returns a Value, and its ``sorted(grads, key=abs)`` calls
micrograph's abs on a float, which raises "must be Tensor".  Neither error names the import.  A
probe finds such a name in the module, called by its functions, and the line of the import that
bound it (the top level's code the import ran, never the file read again), so that a number
that is a Value, or an error raised in that function, is told with it (``ShadowedBuiltin``).

A walk seeded with the int 1 is the other way a Value gets into ex13's answer unasked: the given
``local_grads`` hands an int to the engine's node, whose product with a Value it saved is a
Value (a float gives a float).  ``value_why`` tells which of the two the calls show.
"""

from __future__ import annotations

import builtins
import dis
from collections.abc import Sequence
from contextlib import AbstractContextManager
from types import CodeType, ModuleType, TracebackType
from typing import Any

import micrograph

from grader.spec.facts import CONTEXT
from grader.spec.probe import raised_again_as
from grader.spec.repeat import imported_code

BUILT_INS = tuple(name for name in micrograph.__all__ if hasattr(builtins, name))
"""micrograph's names that are Python built-ins too (abs, pow, sum): a star import replaces them."""
_OWN_CODE = {getattr(micrograph, name).__code__: name for name in BUILT_INS}  # their code, as a traceback meets it
STAR = "*"
"""The import's word where ``from micrograph import *`` bound the name (else the name, imported by name)."""


class ShadowedBuiltin(Exception):
    """The function a test called raised inside micrograph's version of a Python built-in its module
    binds in place of the built-in.  Its message is ``"<function> <name> <line> <how> <error's text>"``
    (``how``: ``*`` for a star import, else the name imported); it is raised with the error's
    traceback, so the grader sees the line it came from."""


def _names_in(code: CodeType) -> set[str]:
    """Every global name ``code`` and the functions nested in it load (not an attribute of the same
    name: ``grads.sum()`` calls no built-in)."""
    found = {ins.argval for ins in dis.get_instructions(code) if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found |= _names_in(const)
    return found


def _import_line(code: CodeType, name: str) -> tuple[int, str] | None:
    """The line of the module's top level (``code``) that bound ``name`` to micrograph's, and how: ``*``
    for ``from micrograph import *``, else the name (``from micrograph import sum``); the last one wins."""
    found, module = None, None
    for ins in dis.get_instructions(code):
        line = ins.positions.lineno if ins.positions is not None else None
        if ins.opname == "IMPORT_NAME":
            module = ins.argval
        elif module == "micrograph" and line is not None and (ins.opname == "IMPORT_STAR" or (
                ins.opname == "IMPORT_FROM" and ins.argval == name)):
            found = (line, STAR if ins.opname == "IMPORT_STAR" else name)
    return found


def shadowed(sub: ModuleType, names: Sequence[str] = BUILT_INS) -> tuple[str, int, str] | None:
    """The first Python built-in among ``names`` the module binds to micrograph's version and its code
    calls (the code its import ran, whose functions the probes may have wrapped since), with the line
    and the way (``_import_line``) it was bound."""
    code = imported_code(sub)
    called = _names_in(code) if code is not None else set()
    for name in names:
        if name in called and vars(sub).get(name) is getattr(micrograph, name):
            where = _import_line(code, name)
            if where is not None:
                return name, *where
    return None


def value_why(sub: ModuleType, calls: Sequence[tuple[Any, Any, Any]], root: Any) -> dict[str, Any]:
    """Context for a number of the answer that is a Value where a float is asked for: a built-in its
    functions call that is micrograph's (``~shadowed``, ``~line``, ``~how``), or else a walk that
    seeded ``root.grad_fn`` with an int, handing which to local_grads gave Values back (``~int_seed``,
    ``~op``: the first node that did).  ``~line`` is written as the import facts write theirs, so
    that feedback names it as it names any line of the graded file (in a notebook, by its cell)."""
    found = shadowed(sub)
    if found is not None:
        return {CONTEXT + "shadowed": found[0], CONTEXT + "line": str(found[1]), CONTEXT + "how": found[2]}
    seed = next((grad for node, grad, _ in calls if node is getattr(root, "grad_fn", None)), None)
    if type(seed) is not int:
        return {}
    made = next((node for node, grad, out in calls if type(grad) is int and isinstance(out, tuple)
                 and any(isinstance(g, micrograph.Value) for g in out)), None)
    return {} if made is None else {CONTEXT + "int_seed": True, CONTEXT + "op": made.name()}


def _raised_in(tb: TracebackType | None) -> str | None:
    """The built-in of micrograph's whose own frame the traceback went through, if any."""
    while tb is not None:
        name = _OWN_CODE.get(tb.tb_frame.f_code)
        if name is not None:
            return name
        tb = tb.tb_next
    return None


def told_if_shadowed(sub: ModuleType, function: str) -> AbstractContextManager[None]:
    """While the student's ``function`` runs: an error raised inside micrograph's version of a
    Python built-in that the module binds in its place is raised again as ``ShadowedBuiltin``."""
    def words(exc: Exception) -> str | None:
        name = _raised_in(exc.__traceback__)
        found = shadowed(sub, (name,)) if name is not None else None
        return None if found is None else f"{function} {name} {found[1]} {found[2]}"
    return raised_again_as(ShadowedBuiltin, words)
