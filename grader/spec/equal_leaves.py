"""Whether each entry of a record was read from its own leaf's .grad, where two leaves hold one number.

``x[0].index(leaf)`` (or ``leaf in row``, a dict keyed by the number) finds a leaf by ``==``,
which compares numbers: with two leaves of one number, both land at the first one's entry, and
the other entry keeps what it held.  Only inputs with equal leaves show it, and they show it as a
wrong number; this fact says which leaf's gradient sits at which entry.  It reads the very floats
the leaves' .grad held while the call ran (``Call.grad_holders``): ``leaf.grad.item()`` hands out
the float the engine wrote, so the holder of a number read is known, not guessed from its value.
"""

from __future__ import annotations

from typing import Any

import micrograph

from grader.spec.call import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def read_per_leaf(rows: object, call: Call, leaves: list[Any], names: list[str], label: str) -> dict[str, Any]:
    """The READ_FROM_LEAF fact of the records ``rows`` (lists with an entry per leaf) a call
    watched with ``grad_numbers=True`` returned: no entry k holds a float only another leaf's
    .grad held, where the statement records ``leaves[k]``'s.  Else its context names the first
    such entry (``~at``: "[j][k]"), the two leaves (``~other``, ``~leaf``) and ``~equal`` when
    the two hold one number.  None when there are no such records."""
    if type(rows) is not list or not all(type(row) is list and len(row) == len(leaves) for row in rows):
        return check(Check.READ_FROM_LEAF, None, label)
    by_leaf = _rows_by_leaf(rows, call, leaves)
    for j, row in enumerate(rows):
        for k, entry in enumerate(row):
            holders = call.grad_holders(entry.item() if isinstance(entry, micrograph.Value) else entry)
            if not holders or any(h is leaves[k] for h in holders):
                continue
            other = next((i for i, leaf in enumerate(leaves) if any(h is leaf for h in holders)), None)
            if other is not None:
                return {**check(Check.READ_FROM_LEAF, False, label), CONTEXT + "at": f"[{j}][{k}]",
                        CONTEXT + "other": names[other], CONTEXT + "leaf": names[k],
                        **({CONTEXT + "rows_by_leaf": True} if by_leaf else
                           {CONTEXT + "equal": leaves[other].item() == leaves[k].item()})}
    return check(Check.READ_FROM_LEAF, True, label)


def _rows_by_leaf(rows: list[list[Any]], call: Call, leaves: list[Any]) -> bool:
    """Whether there is a row per leaf, each holding only floats its own leaf's .grad held (row j: leaf j's
    gradients): the records built the other way round (one leaf per row, not one pass per row), which a lookup
    by number never gives (it puts one leaf's gradient at another's entry, never a whole row per leaf)."""
    if len(leaves) < 2 or len(rows) != len(leaves):
        return False
    return all(any(h is leaves[j] for h in call.grad_holders(entry.item() if isinstance(entry, micrograph.Value) else entry))
               for j, row in enumerate(rows) for entry in row)
