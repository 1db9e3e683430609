"""Whether a call made a new leaf for each entry or name the statement makes one for.

One leaf per distinct number, kept in a dict (``made.setdefault(v, Value(v, ...))``), gives two
entries or names of equal numbers one and the same leaf: a node then takes one input twice, and
backward adds both gradients into it.  Only a case of equal numbers shows it, and it shows as
wrong numbers; these facts say which entry or name holds the Value an earlier one holds.  The
Values are all alive while compared, so no id is reused.  A dict slip (``"b": a``) returns one
Value under two names whatever the graph: ``value_per_name`` tells it, and ``aliased`` names the
facts that would only tell that Value again under the other name.  Where leaves are returned, one
Value under two names is not always one leaf made for both: code that made a leaf for each and
returned one under both names (``"x": w``) computed its result from the other leaf too, which no
name holds (``leaf_per_name``'s ``reached``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from grader.spec.call_records import is_value
from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def leaf_per_entry(rows: object, label: str) -> dict[str, Any]:
    """The LEAF_PER_ENTRY fact of the matrix ``rows`` named ``label``: no entry is the Value an
    earlier entry is, else the later entry and the earlier one it shares (None: not a list of rows,
    which other facts tell).  A row that is the very list an earlier row is (``[row] * n``, or
    ``[[None] * n] * m`` filled in) is left out: its entries are that row's, whatever leaves the
    code made, and the row told as repeated says so."""
    rows = rows if type(rows) is list and all(type(row) is list for row in rows) else []
    own = [(i, row) for i, row in enumerate(rows) if all(row is not earlier for earlier in rows[:i])]
    shared = _shared({f"{label}[{i}][{j}]": v for i, row in own for j, v in enumerate(row)})
    return _fact(Check.LEAF_PER_ENTRY, shared, label, True if rows else None)


def leaf_per_name(named: Mapping[str, Any], label: str, reached: Iterable[Any] = ()) -> dict[str, Any]:
    """The LEAF_PER_NAME fact of the leaves a call returned under ``named``'s names (``label`` the
    call): no name holds the Value an earlier name holds, else the later name and the earlier.
    ``reached``: the Values the call's result was made from (what its operations read, nearest
    first); a leaf requiring grad among them that no name holds gives a shared name the context
    ``~returned_twice``: a leaf made for each name, one returned under both, not one for both."""
    fact = _fact(Check.LEAF_PER_NAME, _shared(named), label, True)
    held = {id(v) for v in named.values()}
    if fact.get("holds") is False and any(_unnamed_leaf(v, held) for v in reached):
        fact[CONTEXT + "returned_twice"] = True
    return fact


def _unnamed_leaf(v: object, held: set[int]) -> bool:
    """Whether ``v`` is a leaf that requires grad and that no returned name holds."""
    return is_value(v) and id(v) not in held and v.grad_fn is None and v.requires_grad


def value_per_name(named: Mapping[str, Any], label: str) -> dict[str, Any]:
    """The VALUE_PER_NAME fact of the Values a call returned under ``named``'s names, leaves or
    not (``label`` the call): no name holds the Value an earlier name holds, else the later name
    and the earlier (told as one Value under two names, not as what that Value is)."""
    return _fact(Check.VALUE_PER_NAME, _shared(named), label, True)


def aliased(named: Mapping[str, Any]) -> dict[str, str]:
    """Each name whose Value another name holds too, and that other name: every fact observed
    through either name is of the one Value, told by ``value_per_name``, so a probe marks those
    facts ``ALIASED`` and the judge compares none of them."""
    return {name: other for name, v in named.items() if is_value(v)
            for other, u in named.items() if other != name and u is v}


def _shared(named: Mapping[str, Any]) -> tuple[str, str] | None:
    """The first name whose Value an earlier name holds, and that earlier name; None if none."""
    seen: dict[int, str] = {}
    for name, v in named.items():
        earlier = seen.setdefault(id(v), name)
        if is_value(v) and earlier != name:
            return name, earlier
    return None


def _fact(kind: Check, shared: tuple[str, str] | None, label: str, held: bool | None) -> dict[str, Any]:
    """The fact ``kind`` of ``label``: ``held`` when no Value is shared, else False with the names."""
    if shared is None:
        return check(kind, held, label)
    missing, kept = shared
    return {**check(kind, False, label), CONTEXT + "missing": missing, CONTEXT + "kept": kept}
