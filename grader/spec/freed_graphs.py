"""A call on a graph one of whose nodes sits where a node of an earlier graph was, with its id:
what a function that keeps answers by ``id(node)`` between calls returns for it.

The probes' usual graphs are kept alive to the end of a run (``backprop_graphs``), so that no
answer meets a stale id by chance; this probe frees its graphs on purpose, and checks that a node
took a freed one's id before it judges, so the score does not depend on the allocator."""

from __future__ import annotations

from itertools import count
from types import ModuleType
from typing import Any, Callable

import micrograph
from micrograph import Value

from grader.spec.freed import at_a_freed_id
from grader.spec.graph_state import graph_nodes
from grader.spec.repeat import fresh_copy


def documents_y(w: float, x: float) -> Value:
    """y = (x + w) * (w + 1) from two new leaves, kept by no one but the caller, recorded whatever
    grad mode an earlier call of the student's left (a mode left off is told by that call's fact)."""
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    with micrograph.enable_grad():
        return micrograph.mul(micrograph.add(xl, wl), micrograph.add(wl, 1))


def at_a_freed_node(sub: ModuleType, call: Callable[[ModuleType, Value], Any],
                    parts: Callable[[Value], list[Any]] = graph_nodes) -> bool:
    """Whether ``call(module, y)``, in a fresh import of the student's file, answers for a
    documents y one of whose ``parts`` (its nodes; or y itself, for answers kept by ``id(y)``)
    took a freed one's id (``freed.at_a_freed_id``) as the same
    call does in another fresh import, where it is the first call.  Each earlier y, at other
    numbers, is handed to ``call`` and let go of.  Fresh imports both: what the probe leaves in
    the module's state reaches no other test.  True (nothing judged) where the file cannot be
    imported again."""
    own, fresh = fresh_copy(sub), fresh_copy(sub)
    if own is None or fresh is None:
        return True
    tries = count(1)

    def make() -> tuple[tuple[float, float], Value]:
        k = next(tries)
        numbers = (0.25 * k, -0.5 * k)
        return numbers, documents_y(*numbers)

    numbers, y = at_a_freed_id(make, lambda made: call(own, made[1]), lambda made: parts(made[1]))
    return call(own, y) == call(fresh, documents_y(*numbers))
