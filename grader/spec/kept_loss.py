"""An engine error raised in a backward pass a call started from a Value an earlier call of the
same function returned.

A step that keeps its loss between calls (per leaf, say) and calls backward on it again at a later
call runs that pass through a graph an earlier call built.  Without retain_graph the earlier pass
freed it, and the engine raises its "backward through the graph a second time" (``FREED``); with
it, the leaf w that graph reaches has been changed in place by the steps since, and where a node
saved w the engine raises its "modified by an inplace operation" (``CHANGED``).  Either names the
backward line, neither the kept loss nor the earlier call.  A probe that watched the call raises
that error again as ``KeptRootRaised`` (``grader.judge.caused_errors`` tells it with those facts
first) where the pass's root is the graph of a Value an earlier call returned (``grader.spec.
repeat.Returned``); for ``CHANGED``, where that graph also reaches the leaf w the probe gave, and w
had been changed in place before the call began (its version counter above 0: the probe makes it
new, at 0, and only the student's calls change it).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from micrograph import AccumulateGrad, Value
from micrograph.node import MODIFIED_INPLACE, SECOND_BACKWARD

from grader.spec.call import Call
from grader.spec.graph_again import MAX_NODES, in_pass
from grader.spec.probe import raised_again_as
from grader.spec.repeat import Returned

FREED, CHANGED = "freed", "changed"
"""Which engine error the pass from the kept graph raised: the graph freed, or a value it saved changed in place."""


class KeptRootRaised(Exception):
    """The function a test called raised the engine's error in a backward pass from the graph of
    a Value an earlier call of it returned.  Its message is ``"<function> <why> <error's text>"``
    (``why`` FREED or CHANGED); it is raised with the error's traceback, so the grader sees the
    line it came from."""


def _reaches(root: object, leaf: Value) -> bool:
    """Whether the graph under the node ``root`` holds ``leaf``'s AccumulateGrad (within MAX_NODES)."""
    seen, stack = {id(root)}, [root]
    while stack and len(seen) < MAX_NODES:
        node = stack.pop()
        if isinstance(node, AccumulateGrad) and node.variable is leaf:
            return True
        for child, _ in getattr(node, "next_functions", ()):
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return False


def told_if_kept_root(call: Call, function: str, returned: Returned, w: Value,
                      version: int) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs on the leaf ``w``, whose version counter was
    ``version`` as it began: the engine's freed-graph or in-place error, raised inside its backward
    walk where the last pass started from the node of a Value ``returned`` holds (an earlier call's),
    is raised again as ``KeptRootRaised``; the in-place one where ``version`` is above 0 and that
    Value's graph reaches ``w``."""
    def words(exc: Exception) -> str | None:
        why = FREED if str(exc).startswith(SECOND_BACKWARD) else CHANGED if str(exc).startswith(MODIFIED_INPLACE) else None
        if why is None or not in_pass(exc) or not call.root_nodes:
            return None
        kept = [v.grad_fn for v in returned.kept if isinstance(v, Value) and v.grad_fn is not None]
        roots = [node for node in call.root_nodes[-1] if any(node is fn for fn in kept)]
        if why == CHANGED and (version <= 0 or not any(_reaches(node, w) for node in roots)):
            return None
        return f"{function} {why}" if roots else None
    return raised_again_as(KeptRootRaised, words)
