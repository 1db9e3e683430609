"""Values returned under each other's names: told as an exchange, not as what it makes differ.

``build_graph`` returning ``{"a": b, "b": a}`` records the statement's graph; what differs is
which Value each name holds.  Compared name by name it reads as two wrong numbers and a graph
that "differs at b", and the student looks for a slip in the arithmetic that is not there.  So
where the Value a name holds is, fact for fact, the one the statement gives another name (and no
third one), and that name's Value is this one's, the names are told as exchanged, and their own
differences are left out; a graph whose nodes differ only by those names is left out
too (its nodes relabelled as the statement's must match, else its own sentence stays).
"""

from __future__ import annotations

from typing import Any

from grader.judge.compare import same
from grader.judge.explained import Difference, clean
from grader.judge.explained import difference as _diff
from grader.judge.sentences import Say
from grader.spec.facts import COMMUTATIVE, CONTEXT, FACT, FLAT_SUM, LABEL, Kind

# The keys of a graph fact's node that hold a Value's name (a named non-leaf, a leaf).
_NAME_KEYS = ("name", "leaf")
_DEEPEST = 40  # a graph deeper than the statements' is compared no further: its own sentence stays


def _is_value(fact: object) -> bool:
    """A VALUE fact of a Value returned under a name (not an entry of a list, ``losses[0]``)."""
    return (type(fact) is dict and fact.get(FACT) == Kind.VALUE.value and type(fact.get(LABEL)) is str
            and "[" not in fact[LABEL])


def _alike(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """The same Value as far as its fact tells, whatever its name."""
    return same({k: v for k, v in want.items() if k != LABEL}, {k: v for k, v in got.items() if k != LABEL})


def _named(label: str) -> tuple[str, str]:
    """A label's name and what follows it ("b (second call)": b, " (second call)")."""
    name, _, note = label.partition(" (")
    return name, note


def exchanges(want: list[Any], got: list[Any]) -> dict[str, str]:
    """Label -> label: each name whose Value is not the statement's but is, fact for fact, the
    statement's Value of exactly one other name, of the same call, whose Value is this name's.
    Only Values under distinct names count (a list of one name's Values over several runs or
    cases is no dict of names), and only a pair that holds each other's: one Value alike another
    name's at one point is a coincidence of numbers as often as a slip."""
    if len(want) != len(got) or not all(_is_value(w) and _is_value(g) for w, g in zip(want, got)):
        return {}
    labels = [g[LABEL] for g in got]
    if len(set(labels)) != len(labels) or not all(_named(label)[0].isidentifier() for label in labels):
        return {}
    moved = {}
    for i, g in enumerate(got):
        if _alike(want[i], g):
            continue
        others = [j for j, w in enumerate(want) if j != i and _alike(w, g)]
        if len(others) == 1 and _named(labels[i])[1] == _named(labels[others[0]])[1]:
            moved[labels[i]] = labels[others[0]]
    return {label: other for label, other in moved.items() if moved.get(other) == label}


def follows_from_exchange(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` tells a Value (or its ``.grad``, its graph) that an exchange among ``found``
    names, or a sentence saying which other Value a name holds: what is true of x0 holding the
    statement's x, and x the statement's x0, is said there."""
    names = {dict(e.fields).get(key) for e in found if e.say is Say.NAMES_EXCHANGED for key in ("label", "partner")}
    label = dict(d.fields).get("label", "")
    other = {dict(e.fields).get("label") for e in found if e.say is Say.PASSED_AS_B}  # the very label: a and its graph
    if d.say is not Say.PASSED_AS_B and label in other:
        return True
    return d.say is not Say.NAMES_EXCHANGED and bool(names) and _named(label)[0].split(".")[0].split("'")[0] in names


def told(moved: dict[str, str]) -> list[Difference]:
    """One sentence per exchanged pair."""
    found, done = [], set()
    for label, other in moved.items():
        if label not in done:
            found.append(_diff(Say.NAMES_EXCHANGED, label=clean(label), partner=clean(other)))
            done.add(other)
    return found


def _tree(nodes: list[Any], i: int, names: dict[str, str], depth: int = 0) -> str:
    """The node ``i`` and everything below it, its names as ``names`` maps them, a sum's or a
    product's inputs in one order (the fact sorts them by the names they had)."""
    node = nodes[i] if type(i) is int and 0 <= i < len(nodes) and depth < _DEEPEST else None
    if type(node) is not dict:
        return repr(i)
    own = sorted((k, names.get(v, v) if k in _NAME_KEYS and type(v) is str else v)
                 for k, v in node.items() if k != "in" and not k.startswith(CONTEXT))
    inputs = [_tree(nodes, j, names, depth + 1) for j in node.get("in") or []]
    if node.get("op") in COMMUTATIVE or node.get("op") == FLAT_SUM:
        inputs.sort()
    return repr((own, inputs))


def graph_explained(want: dict[str, Any], got: dict[str, Any], moved: dict[str, str]) -> bool:
    """Whether a GRAPH fact differs only by the names ``moved`` tells."""
    if not (type(want) is dict and type(got) is dict and want.get(FACT) == Kind.GRAPH.value == got.get(FACT)):
        return False
    wn, gn = want.get("nodes"), got.get("nodes")
    if type(wn) is not list or type(gn) is not list or len(wn) != len(gn) or not wn:
        return False
    names = {_named(label)[0]: _named(other)[0] for label, other in moved.items()}
    return _tree(wn, 0, {}) == _tree(gn, 0, names)
