"""Whether importing the student's file leaves grad mode as it found it.

A file that calls ``micrograph.set_grad_enabled(False)`` at module level, outside a ``with``,
switches grad mode off for whatever imports it: a notebook's next cells, a script's later lines
record no graph until something switches it on again.  Every function of such a file can behave
as asked (each switches the mode as it needs), so only its import shows it.  ``import_mode``
runs the file again in a fresh copy of its module (``repeat.fresh_copy``) with grad mode on, and
tells whether it was still on after, with the line of the file's own code after which it went off
and stayed off.
"""

from __future__ import annotations

from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, ModuleType
from typing import Any

import micrograph

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check
from grader.spec.repeat import fresh_copy

_MODULE_CODE = "<module>"  # the name of a file's top-level code object


def import_mode(sub: ModuleType, label: str) -> dict[str, Any]:
    """The IMPORT_KEEPS_MODE fact of the student's file, imported again under grad mode on
    (``~line``: the line of its top-level code after which the mode went off and stayed off).  It
    holds where the file cannot be run again (other facts judge such a file).  Grad mode is on
    again afterwards, as the later probes expect it."""
    filename = getattr(sub, "__file__", None)
    switched: list[int | None] = [None]
    was_on = [True]
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event not in ("return", "c_return"):
            return
        top = frame if event == "c_return" else frame.f_back
        if top is None or top.f_code.co_name != _MODULE_CODE or top.f_code.co_filename != filename:
            return
        on = micrograph.is_grad_enabled()
        if on != was_on[0]:
            switched[0], was_on[0] = (None if on else top.f_lineno), on

    micrograph.set_grad_enabled(True)
    setprofile(sample)
    try:
        fresh = fresh_copy(sub)
    finally:
        setprofile(previous)
    left_off = fresh is not None and not micrograph.is_grad_enabled()
    micrograph.set_grad_enabled(True)
    fact = check(Check.IMPORT_KEEPS_MODE, not left_off, label)
    if left_off and switched[0] is not None:
        fact[CONTEXT + "at_line"], fact[CONTEXT + "line"] = True, str(switched[0])
    return fact
