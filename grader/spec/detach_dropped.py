"""A detach() whose result the student's code dropped: ``w.detach()`` written as a statement, as if it
cut w from its graph in place.  ``detach()`` returns a new Value and leaves w as it was, still requiring
grad (``detach_()`` is the in-place one), so a leaf meant to require no grad still does, and the graph
built from it records it.  A watched call (``watching(..., made=True)``) notes every Value a detach()
of a Value requiring grad returned and what each Value an operation made was made from; a result that
none of the Values the call returned is, or was computed from, was dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from micrograph import Value

from grader.spec.call import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import plain_dict
from grader.spec.provenance import check


def _reached(call: Call, returned: Sequence[Value]) -> list[object]:
    """The Values ``returned`` and every Value the call's operations made them from, transitively."""
    found: list[object] = []
    todo: list[object] = list(returned)
    while todo:
        v = todo.pop()
        if any(v is u for u in found):
            continue
        found.append(v)
        todo.extend(call.inputs.get(id(v), ()))
    return found


def _detached_from(call: Call, result: object) -> object:
    """The Value a detach() the call made was called on: a leaf (no operation of the call made it)
    is kept beside the result, a Value an operation made is the result's one input."""
    result_and_source = call.aliased.get(id(result))
    if result_and_source is not None and result_and_source[0] is result:
        return result_and_source[1]
    inputs = call.inputs.get(id(result), ())
    return inputs[0] if len(inputs) == 1 else None


def _dropped(call: Call, returned: Sequence[Value], leaf: Value) -> bool:
    """Whether the call called ``leaf.detach()`` and left the new Value it returned out of what the
    call returned: none of ``returned`` is it or was computed from it."""
    reached = _reached(call, returned)
    return any(_detached_from(call, r) is leaf and not any(r is u for u in reached)
               for r in call.detached_results.values())


def detach_used(call: Call, g: object, flags: tuple[bool, bool], label: str) -> dict[str, Any]:
    """The DETACH_USED fact of a call ``label`` that built the documents' graph ``g`` (its leaves w
    and x) with ``flags``: no leaf returned requiring grad against its flag False had a detach() of it
    dropped, the leaf named as context (``~leaf``).  Holds where no such leaf: a detach() dropped
    elsewhere changes nothing the statement asks for."""
    g = plain_dict(g)
    values = [v for v in g.values() if type(v) is Value] if type(g) is dict else []
    for name, flag in zip("wx", flags):
        leaf = g.get(name) if type(g) is dict else None
        if not flag and type(leaf) is Value and leaf.requires_grad and _dropped(call, values, leaf):
            return {**check(Check.DETACH_USED, False, label), CONTEXT + "leaf": name}
    return check(Check.DETACH_USED, True, label)
