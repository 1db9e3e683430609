"""The build track's errors told with their cause before them: a KeyError on a key two nodes of the
graph share (``grader.spec.shared_key``), an AttributeError on a Python number an operator of the
student's Value used where a Value belongs (``grader.spec.number_operand``).  Python's text names
neither the key's owners nor the operator; ``grader.judge.caused_errors`` lists them with the rest."""

from __future__ import annotations

from grader.i18n import _
from grader.judge.said import Tell, said_error
from grader.sandbox.child.wire import ErrorRecord


def shared_key(error: ErrorRecord, tell: Tell) -> str:
    """The KeyError of a build-track backward on a key two nodes of its graph share (``grader.spec.shared_key``):
    that fact first, as the error's text is the key alone."""
    function, key, kind, said = error["message"].split(" ", 3)
    return _("your {function} raised KeyError on a key that is the {key} of two different nodes of the graph it "
             "walked (two {kind} nodes, which have the same {key}): what is kept under such a key (a buffer, a count) is "
             "one entry for both nodes, where each node has its own, keyed by the node itself; {error}",
             function=function, key=key, kind=kind, error=tell(said_error(error, said)))


def number_operand(error: ErrorRecord, tell: Tell) -> str:
    """The AttributeError raised on a Python number an operator of the student's Value was given and
    handed on (``grader.spec.number_operand``): that operand first, as Python's text names neither."""
    function, name, kind, said = error["message"].split(" ", 3)
    return _("your {function} was given {name} as a Python number (of type {kind}) and used it where a Value "
             "belongs, as it came (as_value makes a Value of a number): an attribute only a Value has was read from "
             "it; {error}", function=function, name=name, kind=kind, error=tell(said_error(error, said)))
