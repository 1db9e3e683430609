"""What a graph's node is, read for the GRAPH fact (``grader.spec.graph``): when the engine made it,
whether it saves values and whether a backward freed them, and whether it is the engine's own.

Kept apart because a custom Function's node class may be one of the submission's
(``MyOp._backward_cls``), whose methods would answer for the node: what is read here is read with
the engine's own code, bound before the submission is imported, or the node is told as not the
engine's.
"""

from __future__ import annotations

from typing import Any

from micrograph.function import BackwardCFunction
from micrograph.node import Node  # bound now, before the submission is imported
from grader.spec.facts import CONTEXT, Saved


def made_at(node: Any) -> dict[str, int]:
    """Context ``~made``: the node's ``sequence_nr``, the engine's count of nodes made (``graph._ranked``
    makes it a rank), so that of several nodes where a graph differs the one the student's code made
    first, the one met first reading it, is the one marked and told; nothing for a node of another
    engine's class."""
    made = node.sequence_nr if isinstance(node, Node) else None
    return {CONTEXT + "made": made} if type(made) is int else {}


MADE_BY_FUNCTION = frozenset({"_forward_cls", "__module__", "__doc__"})
"""What the node class ``Function`` makes for each subclass holds of its own (``_forward_cls``)."""


def made_by_function(node: Any) -> bool:
    """Whether a custom Function's node is of the class ``Function`` made for it, holding nothing
    but its ``_forward_cls``; any other node is the engine's.  ``MyOp._backward_cls`` can be set
    to a class of the submission's, whose methods run in the engine's backward and answer for
    the node (``release``, ``saved_versions``, ``name``): it said it saved x and freed it where
    its forward saved nothing."""
    kind = type(node)
    if not isinstance(node, BackwardCFunction):
        return True
    return (kind.__bases__ == (BackwardCFunction,) and kind.__mro__[1:] == BackwardCFunction.__mro__
            and type(kind) is type(BackwardCFunction) and set(vars(kind)) <= MADE_BY_FUNCTION)


def saved_state(node: Any) -> Saved:
    """Whether the node saves values, and whether a backward freed them.  An op declares what
    it saves (``saves``); a custom Function's node declares nothing: what its forward passed to
    ``ctx.save_for_backward`` shows in the versions the node stamped (``saved_versions()``).
    Both are read with the engine's own ``Node`` functions: a custom Function's node class may
    be one of the submission's (``MyOp._backward_cls``), whose methods of those names said it
    saved x and freed it where its forward saved nothing."""
    if not (node.saves or Node.saved_versions(node)):
        return Saved.NONE
    return Saved.FREED if Node.saved_released.fget(node) else Saved.KEPT
