"""Gradients a walk written by hand kept under each node's name (ex13's backprop).

``arrived[node.name()]`` for ``arrived[node]``: every node of one name (two AccumulateGrad nodes,
two MulBackward0 nodes) shares one entry, so the first of them the walk meets uses what reached
any of them, and the others are passed over.  Seen from local_grads's calls (``arrivals.recorded``)
and the answer alone, along the order backprop's topological_order call returned, it is told as
that, not as leaves found by ``==`` or a walk stopped at its first leaf.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import micrograph

from grader.spec.arrivals import Call
from grader.spec.unreached import one_for_unreached
from grader.spec.walked import unscaled
from grader.spec.probe import close


class ByName(NamedTuple):
    """Nodes a walk kept the gradients of under their names (``kept_by_name``)."""

    name: str  # a name two of the nodes met share, where keying by node gives other numbers
    plain: bool  # seen at an op node, or among leaves of more than one number: no leaf found by == does it


def kept_by_name(calls: list[Call], answer: object, orders: Sequence[Any]) -> ByName | None:
    """The nodes a walk kept the gradients of under one entry (``node.name()`` for a key: two
    AccumulateGrad nodes, two MulBackward0 nodes, share it), where its calls and answer are those
    of the statement's walk so keyed, along the one order backprop's topological_order call
    returned: a node met with no entry of its name is passed over (a leaf's then has no entry in
    the answer), else that entry is used (passed to local_grads, or returned for a leaf's
    AccumulateGrad node), and what local_grads returns is added to the entries of its inputs'
    names.  The entry used is popped, or left for the next node of that name to use as it then
    is; leaves' nodes are keyed by name too, or by the node itself (``_VARIANTS``).  None where
    none of them is that walk, or where keying by node gives the same numbers.  Seen only at the
    AccumulateGrad nodes of leaves of one number, it is not ``plain``: a walk that finds leaves
    with ``==`` merges those the same way."""
    if len(orders) != 1 or not calls or not isinstance(answer, dict) or unscaled(calls, answer):  # one passed everywhere
        return None
    if one_for_unreached(calls, answer):  # what a node no gradient reached went on with is the seed's one: told so
        return None
    order, items = list(orders[0]), list(dict.items(answer))
    if not all(isinstance(node, micrograph.Node) for node in order):  # None or a Value in it: told by the order's rules
        return None
    for pops, leaves_by_name in _VARIANTS:
        try:
            found = _walked(calls, order, items, pops, leaves_by_name)
        except (TypeError, ValueError, StopIteration):  # a gradient that is no number, a call not seen: not this walk
            found = None
        if found is not None:
            return found
    return None


_VARIANTS = ((True, True), (False, True), (True, False), (False, False))
"""How a walk by name may use an entry: (popped when used, leaves' nodes keyed by name too)."""


def _walked(calls: list[Call], order: list[Any], items: list[tuple[Any, Any]], pops: bool,
            leaves_by_name: bool) -> ByName | None:
    """``kept_by_name`` for one way of using the entries (``_VARIANTS``)."""
    def key(node: Any) -> Any:
        return node if isinstance(node, micrograph.AccumulateGrad) and not leaves_by_name else _short(node)

    by_name: dict[Any, float] = {key(calls[0][0]): 1.0}
    by_node: dict[Any, float] = {calls[0][0]: 1.0}
    pending, merged, at_op = iter(calls), None, False
    for node in order:
        name, leaf = key(node), isinstance(node, micrograph.AccumulateGrad)
        if name not in by_name:  # passed over: keyed by node, what reached it (not 0) is used here
            if leaf and any(k is node.variable for k, _ in items):
                return None
            differs = not close(by_node.get(node, 0.0), 0.0)
        else:
            got, own = by_name.pop(name) if pops else by_name[name], by_node.pop(node, 0.0)
            differs = not close(got, own)
            if leaf and not _answered(items, node.variable, got):
                return None
            if not leaf and not _sent_on(next(pending), node, got, by_name, by_node, key):
                return None
        merged, at_op = merged or (_short(node) if differs else None), at_op or (differs and not leaf)
    if merged is None or next(pending, None) is not None:
        return None
    numbers = {node.variable.item() for node in order if isinstance(node, micrograph.AccumulateGrad)}
    return ByName(merged, at_op or len(numbers) > 1)


def _answered(items: list[tuple[Any, Any]], leaf: Any, got: float) -> bool:
    """Whether the answer's entry for ``leaf`` is the number ``got``."""
    given = [g for k, g in items if k is leaf]
    return bool(given) and type(given[0]) in (int, float) and close(float(given[0]), got)


def _sent_on(call: Call, node: Any, got: float, by_name: dict[Any, float], by_node: dict[Any, float],
             key: Callable[[Any], Any]) -> bool:
    """Whether ``call`` ran local_grads on ``node`` with ``got``; what it returned is then added
    to the entries of the node's inputs, by ``key`` (a name) and by node."""
    ran, grad, out = call
    if ran is not node or not close(float(grad), got):
        return False
    for (child, _), sent in zip(node.next_functions, out):
        if child is not None and sent is not None:
            by_name[key(child)] = by_name.get(key(child), 0.0) + float(sent)
            by_node[child] = by_node.get(child, 0.0) + float(sent)
    return True


def _short(node: Any) -> str:
    """A node's name as the sentences spell it: AccumulateGrad, not torch's qualified name."""
    return str(node.name()).rpartition("::")[2]
