"""Two graphs matched node for node by position, whatever names their nodes carry.

A GRAPH fact labels its nodes with the names a returned dict gives its Values, so a dict whose
names hold the wrong Values labels a graph built as the statement says in the wrong places.
``matches`` pairs the nodes of two GRAPH facts' node lists by what they are instead: the same
operation, saving the same, on inputs paired the same way (a sum's or a product's in any order,
a Value used twice the same node twice), holding the same number (``~data``: the graphs were
built from the same inputs).  Plain JSON in, plain JSON out: the child matches a given
function's graph with it (``grader.spec.given``), the judge a submission's with the statement's
(``grader.judge.placed``).
"""

from __future__ import annotations

import itertools
from typing import Any

from grader.spec.facts import COMMUTATIVE, CONTEXT, FLAT_SUM
from grader.spec.probe import close

_NAMES = ("name", "leaf")  # what a node carries of the dict's names: left out of the match
_MOST_NODES = 60  # a graph larger than the statements' is matched no further
_MOST_INPUTS = 6  # a sum of more inputs is matched in their order only
_FOUND_ENOUGH = 2  # two pairings tell that the match is not unique: no need for a third


def _own(node: dict[str, Any]) -> dict[str, Any]:
    """What a node is, names and inputs aside: its op and what it saved."""
    return {k: v for k, v in node.items() if k not in (*_NAMES, "in") and not k.startswith(CONTEXT)}


def _close(a: object, b: object) -> bool:
    """Two numbers a node holds alike (or both absent)."""
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b or close(a, b) or (a != a and b != b)
    return a == b


def _alike(want: dict[str, Any], got: dict[str, Any]) -> bool:
    return _own(want) == _own(got) and _close(want.get(CONTEXT + "data"), got.get(CONTEXT + "data"))


def _orders(node: dict[str, Any], inputs: list[Any]) -> list[tuple[Any, ...]]:
    """The orders a node's inputs may be paired in: any, for a sum's or a product's."""
    if (node.get("op") in COMMUTATIVE or node.get("op") == FLAT_SUM) and len(inputs) <= _MOST_INPUTS:
        return list(dict.fromkeys(itertools.permutations(inputs)))
    return [tuple(inputs)]


def _extend(wn: list[Any], gn: list[Any], pending: list[tuple[Any, Any]], pairs: dict[int, int],
            found: list[dict[int, int]]) -> None:
    """Every way (up to ``_FOUND_ENOUGH``) to pair the nodes still ``pending`` (want, got),
    given ``pairs`` (got -> want) made so far."""
    if len(found) >= _FOUND_ENOUGH:
        return
    if not pending:
        found.append(pairs)
        return
    (i, j), rest = pending[0], pending[1:]
    if i is None or j is None:  # a constant input pairs with a constant only
        if i is j:
            _extend(wn, gn, rest, pairs, found)
        return
    if type(i) is not int or type(j) is not int or not (0 <= i < len(wn) and 0 <= j < len(gn)):
        return
    if j in pairs or i in pairs.values():
        if pairs.get(j) == i:
            _extend(wn, gn, rest, pairs, found)
        return
    w, g = wn[i], gn[j]
    if type(w) is not dict or type(g) is not dict or not _alike(w, g):
        return
    wi, gi = w.get("in") or [], g.get("in") or []
    if type(wi) is not list or type(gi) is not list or len(wi) != len(gi):
        return
    for order in _orders(g, gi):
        _extend(wn, gn, [*zip(wi, order), *rest], {**pairs, j: i}, found)


def matches(want: object, got: object) -> list[dict[int, int]]:
    """The pairings (got node -> want node; none, one, or two when there are several) of two
    GRAPH facts' node lists by position, every node paired."""
    if type(want) is not list or type(got) is not list or len(want) != len(got) or not want:
        return []
    if len(want) > _MOST_NODES:
        return []
    found: list[dict[int, int]] = []
    _extend(want, got, [(0, 0)], {}, found)
    return [pairs for pairs in found if len(pairs) == len(got)]
