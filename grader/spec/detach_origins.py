"""Whether a result came through a ``detach()``, judged from what a watched call
(``provenance.watching``) saw: a detach shares its Value's number and version counter, a Value
made again from the number shares neither, and the graphs and numbers of the two are the same.
Apart from the other origins (``origins``) because these facts are about one operation, the
cut, and read the call's records of detaches as well as what its operations made.

    detached_from(y, w, call, "y")          CHECK fact: y's node saved a detach() of w (the
                                           saved values as the pass found them, before freeing)
    leaf_beside(y, w)                       the leaf beside y's constant input (else w): what a
                                           detach() is judged against
    detached_some(call, "f")                CHECK fact: the student's code called detach() on a
                                           Value that requires grad (not a new Value instead)
    none_detached(call, returned, "f")      CHECK fact: nothing handed back or changed came
                                           through a detach() of a Value that requires grad
    ran_on_detached(call, "f")              CHECK fact: no backward pass started from a node an
                                           operation recorded, once the call had detached
"""

from __future__ import annotations

from typing import Any

from micrograph.node import AccumulateGrad
from micrograph.value import shares_storage, shares_version_counter
from grader.spec.call import Call
from grader.spec.call_records import is_value
from grader.spec.cut import cut_on_the_way
from grader.spec.facts import CONTEXT, Check
from grader.spec.origins import made_of, read_on_the_way, walked_back
from grader.spec.provenance import check


def detached_from(root: object, of: object, call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: ``root``'s node saved a detach() of ``of`` (the factor that stops the
    gradient in ``of * of.detach()``): a Value sharing both ``of``'s number and its version
    counter, not ``of`` itself.  A new Value or a number of the same value gives the same graph
    and numbers, but no cut by detach; ``.data`` shares the number, not the version counter.
    Backward frees what a node saved, so the values the watched ``call``'s passes found first
    are used; holds is None when the node has no constant input or nothing saved can be seen."""
    node = getattr(root, "grad_fn", None) if is_value(root) else None
    constant_input = node is not None and any(fn is None for fn, _ in node.next_functions)
    saved = call.saved.get(node, node.saved_items()) if constant_input else None
    if saved is None or not is_value(of):  # no constant input, or nothing saved to see
        return check(Check.DETACHED_FROM, None, label)
    holds = any(is_value(item) and item is not of and shares_storage(item, of) and shares_version_counter(item, of)
                for item in saved)
    return check(Check.DETACHED_FROM, holds, label)


def leaf_beside(root: object, returned: object) -> object:
    """The leaf that requires grad beside the constant input of ``root``'s node (``w_cut`` in
    ``w_cut * w_cut.detach()``): the Value a detach() of it is judged against, the very leaf the
    student's code multiplied, not one their dict returned under its name (a copy slip there is
    told by the returned Value's own facts).  ``returned`` where the node has no constant input
    beside exactly one leaf."""
    node = getattr(root, "grad_fn", None) if is_value(root) else None
    edges = getattr(node, "next_functions", ()) if node is not None else ()
    if not any(fn is None for fn, _ in edges):
        return returned
    leaves = {id(fn.variable): fn.variable for fn, _ in edges if isinstance(fn, AccumulateGrad)}
    return next(iter(leaves.values())) if len(leaves) == 1 else returned


def detached_some(call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: the watched ``call`` (made with ``made=True``) called ``detach()`` or
    ``detach_()`` on a Value that requires grad.  A Value made from the number instead (``Value((w * 2).item())``)
    has no graph either, and backward refuses it the same way: only the call tells them apart."""
    if call.probe_made is None or call.detached_tracked:
        return check(Check.DETACHED_SOME, None if call.probe_made is None else True, label)
    plain = any(_from_plain_leaf(call, v) for v in call.detached_untracked.values())
    return {**check(Check.DETACHED_SOME, False, label), **({CONTEXT + "plain_leaf": True} if plain else {})}


def none_detached(call: Call, returned: list[object], label: str) -> dict[str, Any]:
    """The CHECK fact: nothing the watched ``call`` (made with ``made=True``) handed back or changed
    came through a ``detach()`` of a Value that requires grad: none of ``returned`` is such a
    detach or was computed from one, and the call changed none in place (nor cut a Value with
    ``detach_()`` that one of them was made from after the cut: ``cut.cut_on_the_way``).  A detach whose number only a comparison or ``float()`` read
    (``while y.detach() < limit``) records nothing and drops nothing from a graph: it passes.
    ``~returned``: the call computed nothing from a detach, but returned one itself."""
    if call.probe_made is None:
        return check(Check.NONE_DETACHED, None, label)
    itself = any(call.detach_of(v) for v in returned)  # ``~returned``: handed back as detach() returned it, alone
    computed = call.detached_changed or any(call.detach_of(u) for v in returned if is_value(v) and not call.detach_of(v)
                                            for u in read_on_the_way(v, call)) or any(
        cut_on_the_way(call.cut_in_place, v, read_on_the_way(v, call)) for v in returned if is_value(v))
    return {**check(Check.NONE_DETACHED, not (itself or computed), label),
            **({CONTEXT + "returned": True} if itself and not computed else {})}


def _from_plain_leaf(call: Call, v: Any) -> bool:
    """Whether ``v``, a Value requiring no grad that the watched call detached, was computed with
    grad mode on by the call's operations from a leaf that requires no grad (``Value(w)`` for
    ``Value(w, requires_grad=True)``): its graph was never there to cut."""
    made = call.probe_made or {}
    reached = walked_back(v, lambda u: () if call.made_untracked.get(id(u)) is u else made_of(call, u))
    return any(u.grad_fn is None and not u.requires_grad and made.get(id(u)) is not u for u in reached)


def ran_on_detached(call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: the watched ``call`` (made with ``made=True``), which detached a Value that
    requires grad before any backward pass, started no pass from a node an operation recorded:
    ``z.detach()`` with its result dropped leaves z its grad_fn, and backward runs from it.  None
    where the call detached nothing (``detached_some`` tells that) or only after a pass started
    (then it is the order that differs).  ``~detach_read``: the Value backward ran from was computed
    from a detach() the call made too (``w.detach() * w``): the detach cut one path, not all."""
    if call.probe_made is None or call.detached_first != 0:
        return check(Check.RAN_ON_DETACHED, None, label)
    root = call.first_root
    fact = check(Check.RAN_ON_DETACHED, root is None or type(root) is AccumulateGrad, label)
    made = next((v for v in call.probe_made.values() if root is not None and v.grad_fn is root), None)
    read = made is not None and any(call.detach_of(u) for u in read_on_the_way(made, call))
    return {**fact, CONTEXT + "detach_read": True} if read else fact
