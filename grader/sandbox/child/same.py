"""A student's engine seen by identity while its graph is drawn (the build track, ex16-ex22).

``micrograph.viz`` keys the nodes and values it has drawn in dicts and sets, which ask the
objects' own ``__eq__`` and ``__hash__``: a student's Node that compares equal by ``name()``
would make two MulBackward0 nodes one, and the picture (and the difference.svg comparison
with PyTorch's graph) would show a shape the engine never built.  Here each of the engine's
objects is handed to the drawing behind a stand-in compared by identity, one stand-in per
object, which reads through to it every name the drawing protocol reads
(``micrograph.viz.protocol``), giving back the engine's nodes and values as stand-ins too.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value

_LINKS = ("grad_fn", "variable")  # attributes that hold another node or value of the engine


class Same:
    """One object of the student's engine, compared and hashed by identity (``object``'s)."""

    __slots__ = ("target", "seen")

    def __init__(self, target: Any, seen: dict[int, Same]) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "seen", seen)

    def __getattr__(self, name: str) -> Any:
        got = getattr(self.target, name)
        if name in _LINKS:
            return stand_in(got, self.seen)
        if name == "next_functions" and type(got) in (tuple, list):
            return tuple(_pair(p, self.seen) for p in got)
        if name == "next_functions" and hasattr(got, "__next__"):  # a generator: read once, lazily, as it is
            return (_pair(p, self.seen) for p in got)
        return got


def _pair(p: Any, seen: dict[int, Same]) -> Any:
    """An entry of next_functions with its node behind a stand-in; anything else as it is."""
    if type(p) in (tuple, list) and len(p) == 2:
        return (stand_in(p[0], seen), p[1])
    return stand_in(p, seen) if p is not None and hasattr(p, "next_functions") else p


_KINDS: dict[type, type] = {}  # a stand-in class per class of the engine, named as it is


def stand_in(x: Any, seen: dict[int, Same]) -> Any:
    """``x`` behind its one stand-in (kept in ``seen``, with ``x`` alive, so no id is reused), or
    ``x`` itself: None, a plain number, or a micrograph Value (micrograph's own reads need it)."""
    if x is None or type(x) in (bool, int, float, str) or isinstance(x, Value):
        return x
    if id(x) not in seen:
        kind = _KINDS.setdefault(type(x), type(type(x).__name__, (Same,), {"__slots__": ()}))
        seen[id(x)] = kind(x, seen)
    return seen[id(x)]


def by_identity(values: list[Any], names: Any) -> tuple[list[Any], Any]:
    """The roots and names a diagram draws, each behind its stand-in when the engine is not
    micrograph's (``graph_json`` then reads them through the protocol)."""
    if all(isinstance(v, Value) for v in values):
        return values, names
    seen: dict[int, Same] = {}
    named = {k: stand_in(v, seen) for k, v in names.items()} if isinstance(names, dict) else names
    return [stand_in(v, seen) for v in values], named
