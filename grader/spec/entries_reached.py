"""Which entries of a matrix of Values the graph of a root is computed from.

A layer's outputs are all made by one node (``AddmmBackward0``), each entry one output of it
(its ``output_nr``), so the GRAPH fact, whose nodes are the engine's nodes, shows a sum over
some of them only as a node that takes fewer inputs.  An edge of the graph carries one output
of one node: an entry reaches the root when some edge below it (or the root itself) carries
that entry, and the entries that reach none name what the sum left out (a row, a column).
"""

from __future__ import annotations

from typing import Any

from grader.spec.call_records import is_value
from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check

MAX_NODES = 5000  # a graph walked further is a runaway loop's: judged by the other facts
_Edge = tuple[int, int]  # a node's id and which of its outputs


def _edges(root: Any) -> set[_Edge] | None:
    """Every edge of the graph below ``root`` (its own included), None past ``MAX_NODES``."""
    node = root.grad_fn
    edges: set[_Edge] = {(id(node), root.output_nr)}
    seen, stack = {id(node)}, [node]
    while stack:
        for child, nr in stack.pop().next_functions:
            if child is None:
                continue
            edges.add((id(child), nr))
            if id(child) not in seen:
                if len(seen) >= MAX_NODES:
                    return None
                seen.add(id(child))
                stack.append(child)
    return edges


def every_entry(rows: object, root: object, label: str, matrix: str) -> dict[str, Any]:
    """The EVERY_ENTRY fact: ``root`` (named ``label``) is computed from every entry of the
    matrix ``rows`` (named ``matrix``, context ``~of``); else context ``~missing``, the first row
    of which no entry reaches it (with ``~row``: "output[1]") or else the first entry that does
    not, and ``~none`` where no entry does (a loss made from another call of the layer).  None
    where it cannot be told: no matrix of computed Values, or no graph behind the root (other
    facts say so)."""
    entries = rows if type(rows) is list and all(type(row) is list for row in rows) else []
    made = all(is_value(v) and v.grad_fn is not None for row in entries for v in row)
    edges = _edges(root) if made and is_value(root) and root.grad_fn is not None else None
    if not any(entries) or edges is None:
        return check(Check.EVERY_ENTRY, None, label)
    reached = [[(id(v.grad_fn), v.output_nr) in edges for v in row] for row in entries]
    if all(all(row) for row in reached):
        return check(Check.EVERY_ENTRY, True, label)
    fact = {**check(Check.EVERY_ENTRY, False, label), CONTEXT + "of": matrix}
    if not any(any(row) for row in reached):
        return {**fact, CONTEXT + "none": True}
    row = next((i for i, row in enumerate(reached) if row and not any(row)), None)
    if row is not None:
        return {**fact, CONTEXT + "row": True, CONTEXT + "missing": f"{matrix}[{row}]"}
    i, j = next((i, j) for i, row in enumerate(reached) for j, hit in enumerate(row) if not hit)
    return {**fact, CONTEXT + "missing": f"{matrix}[{i}][{j}]"}
