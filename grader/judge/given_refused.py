"""The sentence of a given function called as its given code cannot run (``grader.spec.given.GivenRefused``).

A given function (ex13's local_grads, ex11's x_grads) that raises on a call raises on it in its
given form too: the call is the mistake, not the function that raised.  Its arguments are spelled
by their types, or, where every Value among them has a .grad of None (``unwritten``), by that: the
arguments are the right ones, read before any gradient was there.
"""

from __future__ import annotations

from typing import Callable

from grader.i18n import _
from grader.judge.said import said_error
from grader.judge.messages import torch_explained
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.given import UNWRITTEN


def given_refused(error: ErrorRecord, line_named: Callable[[int], str]) -> str:
    """The sentence of a GivenRefused error.  The caller is the student's function that made the
    call (the message's ``vjp:81``), not the frame below the one that raised, which is the given
    function's own (or its list comprehension's)."""
    helper, _sep, rest = (error["message"] or "").partition(" ")
    site, _sep, rest = rest.partition(" ")
    types, _sep, said = rest.partition(" ")
    inner = said_error(error, said)
    kind, text = inner["type"], inner["message"]
    function = error["function"] if error["function"] and error["function"].isidentifier() else helper
    raised = _("{kind} at {line} (in {function})", kind=kind, line=line_named(error["line"]),
               function=function) + (f": {torch_explained(text)}" if text else "")
    caller, _sep, line = site.partition(":")
    if types == UNWRITTEN and line.isdigit():
        return _("{caller} called {helper} ({line}) on Values whose .grad is None, and the given {helper} raises on "
                 "that call too: your code raised {raised}", caller=caller, helper=helper, line=line_named(int(line)),
                 raised=raised)
    if types == UNWRITTEN:
        return _("your code called {helper} on Values whose .grad is None, and the given {helper} raises on that "
                 "call too: it raised {raised}", helper=helper, raised=raised)
    call = f"{helper}{types.replace(',', ', ')}"
    if line.isdigit():
        return _("{caller} called {helper} as {call} ({line}), and the given {helper} raises on that call too: your "
                 "code raised {raised}", caller=caller, helper=helper, call=call, line=line_named(int(line)),
                 raised=raised)
    return _("your code called {helper} as {call}, and the given {helper} raises on that call too: it raised "
             "{raised}", helper=helper, call=call, raised=raised)
