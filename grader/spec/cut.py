"""Whether a ``detach_()`` a call made cut a Value out of what it handed back.

``detach_()`` on a Value an operation made takes its grad_fn away from that Value, not from the
nodes already recorded on top of it: a doubling loop that detaches each old y once the next one is
made (``new = y * 2; y.detach_()``) hands back a y whose graph still runs down to the leaf, as in
torch.  Only a Value made from the cut one after the cut (``y.detach_(); y = y * 2``), or the cut
one itself handed back, lost the graph below it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def cut_on_the_way(cut: Iterable[tuple[Any, Any]], v: Any, read: Iterable[Any]) -> bool:
    """Whether ``v``, handed back by a call, or a Value among ``read`` (those the call's operations
    read to make it) is one of ``cut`` (each a Value ``detach_()`` cut, with the node it had then)
    and ``v``'s graph does not run through that node: what was made from it came after the cut."""
    used = {id(u) for u in (v, *read)}
    cut_used = [node for u, node in cut if id(u) in used]
    return bool(cut_used) and not all(id(node) in _nodes_below(v) for node in cut_used)


def _nodes_below(v: Any) -> set[int]:
    """The ids of the nodes ``v``'s graph holds, from its grad_fn down every entry of next_functions."""
    seen: set[int] = set()
    frontier = [getattr(v, "grad_fn", None)]
    while frontier:
        node = frontier.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        frontier.extend(child for child, _ in getattr(node, "next_functions", ()))
    return seen
