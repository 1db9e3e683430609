"""Names that hold another Value of the right graph: told as the name's slip, not as the graph's.

A GRAPH fact labels its nodes with the names of the dict the student returned (``built``), so
``{"a": b, "b": b}`` labels the statement's b node "b", its a node nothing, and the graph
compared name by name "differs at its root", though y is built as the statement says.  Here the
two graphs are matched by position (``grader.spec.positions``): where every node pairs with one
of the statement's, the graph is the statement's and its own sentence is left out, and each name
is judged by the place its Value has in it (``~at``) against the place of the statement's name.
A name holding the Value of another place is told where that shows: its Value is returned under
another name too (``~is``), or its own fact differs from the statement's.  A name whose fact
agrees (two leaves of one number, a and b equal at this point) is not told here: which of two
equal Values a name holds is not seen, and the test's other points tell it; but one Value
returned under two names whose Values the statement's graph keeps apart (w and x of one number
made one leaf) is told, once for the pair.  Out of the graph
(a leaf that requires no grad), a Value under two names is told of the name whose fact differs.
"""

from __future__ import annotations

from typing import Any

from grader.judge.compare import same
from grader.judge.explained import Difference, clean
from grader.judge.explained import difference as _diff
from grader.judge.sentences import Say
from grader.spec.facts import CONTEXT, FACT, LABEL, Kind
from grader.spec.positions import matches


def _at(fact: dict[str, Any]) -> dict[str, int]:
    at = fact.get(CONTEXT + "at")
    return {n: i for n, i in at.items() if type(n) is str and type(i) is int} if type(at) is dict else {}


def _values(nodes: object) -> dict[str, dict[str, Any]]:
    """The VALUE facts of a built() dict's names, by name (their labels may carry a note)."""
    if type(nodes) is not list:
        return {}
    return {n[LABEL].partition(" (")[0]: n for n in nodes
            if type(n) is dict and n.get(FACT) == Kind.VALUE.value and type(n.get(LABEL)) is str}


def _alias(fact: dict[str, Any]) -> str | None:
    """The other name a VALUE fact's Value was returned under too (``~is``), if any."""
    other = fact.get(CONTEXT + "is")
    return other if type(other) is str else None


def placed(want: dict[str, Any], got: dict[str, Any], exchanged: set[str]) -> tuple[bool, list[Difference]]:
    """For a built() dict's observation (its ``graph`` and the VALUE facts of its ``nodes``):
    whether its graph is the statement's but for the names its nodes carry, and what the names it
    returned hold, told where it shows, but for names told as ``exchanged`` already.  A Value
    returned under two names is told of the name whose place in the graph is the other's, or,
    out of the graph, whose own fact differs from the statement's."""
    wg, gg = want.get("graph"), got.get("graph")
    if not (type(wg) is dict and type(gg) is dict and wg.get(FACT) == Kind.GRAPH.value == gg.get(FACT)):
        return False, []
    wv, gv = _values(want.get("nodes")), _values(got.get("nodes"))
    paired = matches(wg.get("nodes"), gg.get("nodes"))
    where = paired[0] if len(paired) == 1 else None  # two places of alike Values: which one a name holds is not seen
    want_at, got_at = _at(wg), _at(gg)
    owners: dict[int, set[str]] = {}
    for name, i in want_at.items():
        owners.setdefault(i, set()).add(name)
    root = clean(gg.get(LABEL, "y")).partition(" (")[0]
    found, paired_names = [], set()
    for name, fact in gv.items():
        alias, differs = _alias(fact), name in wv and not same(wv[name], fact)
        if name in exchanged:
            continue
        if alias is not None and name in wv and _alias(wv[name]) != alias and where is None:
            # the statement's two names hold two Values (two leaves of one number): one Value under
            # both is told once, of the second name, whatever their facts
            if frozenset((name, alias)) not in paired_names:
                paired_names.add(frozenset((name, alias)))
                continue
            differs = True
        if where is not None and name in got_at:  # judged by its place in the graph
            if name in owners.get(where.get(got_at[name], -1), set()):
                continue
            if alias is None and differs:
                found.append(_diff(Say.NAME_PLACED, label=fact[LABEL], of=root))
            differs = True  # the place shows it, whatever the numbers
        if alias is not None and differs:
            found.append(_diff(Say.NAME_ALIAS, label=fact[LABEL], name=alias))
        elif where is not None and name in want_at and name not in got_at and fact.get("type") == "Value":
            found.append(_diff(Say.NAME_OUTSIDE, label=fact[LABEL], of=root))  # a copy returned, the graph built on the original
    return bool(paired), found

