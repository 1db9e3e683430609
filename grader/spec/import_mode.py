"""Whether importing the student's file leaves grad mode, and the warnings shown, as it found them.

A file that calls ``micrograph.set_grad_enabled(False)`` at module level, outside a ``with``,
switches grad mode off for whatever imports it: a notebook's next cells, a script's later lines
record no graph until something switches it on again.  A file that sets a warnings filter at
module level (``warnings.filterwarnings("ignore")``, ``simplefilter("error")``) changes, for
whatever imports it, what reading a non-leaf's ``.grad`` shows: no warning, or an error.  Every
function of such a file can behave as asked (each switches the mode or the filters as it needs),
so only its import shows it.  ``import_mode`` and ``import_warnings`` run the file again in a
fresh copy of its module (``repeat.fresh_copy``), with grad mode on and under a caller's filter
that shows every warning, and tell whether it was still so after, with the line of the file's own
code after which it last changed.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, ModuleType
from typing import Any

import micrograph
from micrograph.value import NONLEAF_GRAD_WARNING  # the engine's own text

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check
from grader.spec.repeat import fresh_copy

_MODULE_CODE = "<module>"  # the name of a file's top-level code object


def _run_again(sub: ModuleType, state: Callable[[], object]) -> tuple[ModuleType | None, int | None]:
    """The student's file run again (``fresh_copy``: None where it cannot be), and the line of its
    top-level code after which ``state()`` last changed (None: it never did)."""
    return watched(lambda: fresh_copy(sub, keep_mode=True), state, getattr(sub, "__file__", None), top_level=True)


def watched(run: Callable[[], Any], state: Callable[[], object], filename: str | None,
            top_level: bool = False) -> tuple[Any, int | None]:
    """What ``run()`` returned, and the line of the student's file ``filename`` after which
    ``state()`` last changed while it ran (None: it never did): the line of whatever call of that
    file's code returned with the state changed (of its top-level code only, with ``top_level``)."""
    last: list[object] = [state()]
    changed: list[int | None] = [None]
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event not in ("return", "c_return"):
            return
        top = frame if event == "c_return" else frame.f_back
        if top is None or top.f_code.co_filename != filename or top_level and top.f_code.co_name != _MODULE_CODE:
            return
        now = state()
        if now != last[0]:
            last[0], changed[0] = now, top.f_lineno

    setprofile(sample)
    try:
        result = run()
    finally:
        setprofile(previous)
    return result, changed[0]


def _at(fact: dict[str, Any], line: int | None, key: str = "at_line") -> dict[str, Any]:
    """``fact`` with the line it happened at as context (``key`` marks it), where it failed and the
    line is known."""
    if fact["holds"] is False and line is not None:
        fact[CONTEXT + key], fact[CONTEXT + "line"] = True, str(line)
    return fact


def import_mode(sub: ModuleType, label: str) -> dict[str, Any]:
    """The IMPORT_KEEPS_MODE fact of the student's file, imported again under grad mode on
    (``~line``: the line of its top-level code after which the mode went off and stayed off).  It
    holds where the file cannot be run again (other facts judge such a file).  Grad mode is on
    again afterwards, as the later probes expect it."""
    micrograph.set_grad_enabled(True)
    fresh, line = _run_again(sub, micrograph.is_grad_enabled)
    left_off = fresh is not None and not micrograph.is_grad_enabled()
    micrograph.set_grad_enabled(True)
    return _at(check(Check.IMPORT_KEEPS_MODE, not left_off, label), line)


IMPORTED = "import_mode"  # the observation key of the fact ``imported`` adds


def imported(probe: Callable[[ModuleType], Any], module: str) -> Callable[[ModuleType], Any]:
    """``probe`` with the IMPORT_KEEPS_MODE fact of the student's file ``module`` added to what it
    observes (under ``IMPORTED`` in a dict, after the entries of a list): every engine exercise
    judges it in its first public test (``Exercise.test``), since a file that switches grad mode off
    at import can have every function switch it on for itself, and only its import shows it.  The
    label names the file as the student imports it."""

    @functools.wraps(probe)
    def probed(sub: ModuleType) -> Any:
        observed = probe(sub)
        fact = import_mode(sub, f"importing {module}.py")
        if type(observed) is dict:
            return {**observed, IMPORTED: fact}
        return [*observed, fact] if type(observed) is list else observed

    return probed


def filters_kept(call: Callable[[], object], label: str, filename: str | None) -> dict[str, Any]:
    """The CALL_KEEPS_FILTERS fact of ``call()``, a call of the student's function (``label``),
    made under a caller's own filter (``ignore``, as pytest or ``python -W ignore`` set): the
    warnings filters are as they were once it returns, where a filter set outside
    ``catch_warnings`` stays in force in the caller's code.  Where not, ``~line``: the line of the
    file ``filename`` after which they last changed.  The filters are the caller's again
    afterwards (``catch_warnings``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        before = list(warnings.filters)
        _, line = watched(call, lambda: tuple(warnings.filters), filename)
        kept = list(warnings.filters) == before
    return _at(check(Check.CALL_KEEPS_FILTERS, kept, label), line)


def import_warnings(sub: ModuleType, label: str) -> dict[str, Any]:
    """The IMPORT_KEEPS_WARNINGS fact of the student's file, imported again under a caller's filter
    that shows every warning: reading a new non-leaf's ``.grad`` afterwards still shows the
    engine's warning, as it did before the import.  Where it does not, ``~raised`` (the filter
    made it an error) and ``~line``: the line of the file's top-level code after which the
    warnings filters last changed (``~raised_at`` where it was made an error).  It holds where the file cannot be run again.  The filters are
    the caller's again afterwards (``catch_warnings``)."""
    raised = False
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fresh, line = _run_again(sub, lambda: tuple(warnings.filters))
        if fresh is None:
            return check(Check.IMPORT_KEEPS_WARNINGS, True, label)
        del seen[:]  # what the file's own code warned while it ran is not the read's
        try:
            with micrograph.enable_grad():  # a file that also left grad mode off is told so by its own fact
                micrograph.mul(micrograph.Value(1.0, requires_grad=True), 2.0).grad  # noqa: B018 - the read warns
        except Warning:  # a filter of the file's made the warning an error
            raised = True
    shown = not raised and any(str(w.message) == NONLEAF_GRAD_WARNING for w in seen)
    fact = {**check(Check.IMPORT_KEEPS_WARNINGS, shown, label), **({CONTEXT + "raised": True} if raised else {})}
    return _at(fact, line, "raised_at" if raised else "at_line")
