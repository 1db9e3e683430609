"""An object put where an earlier one was, with its id: what state kept by ``id()`` takes for the
earlier one.

A function that keeps something between calls by the id of what it was given (an optimizer per
``id(model)``, the ids of the nodes whose values retain their grad) is right for as long as
those objects live, and wrong once CPython gives a new object a freed one's id: on one run and
not on the next, unless the probe puts it there.  ``at_a_freed_id`` does, checking each time,
so that the score does not depend on where the allocator put an object."""

from __future__ import annotations

import gc
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")

REUSE_TRIES = 256
"""Objects made, handed on and freed in turn, at most, until a new one takes a freed one's id."""

MOST_MADE = REUSE_TRIES + 2
"""How many objects ``at_a_freed_id`` asks its ``make`` for, at most: the first, one per try, and
the one it returns when no try landed."""


def at_a_freed_id(make: Callable[[], T], use: Callable[[T], object],
                  parts: Callable[[T], Iterable[object]] = lambda thing: (thing,),
                  earlier: Callable[[], T] | None = None) -> T:
    """A new object of ``make``'s one of whose ``parts`` (itself, or parts of it: a value's
    node, every node of a graph) has the id of a part of an earlier one, which was handed to
    ``use`` and then let go of; after ``REUSE_TRIES`` objects none did, a new one all the same
    (an engine that keeps each object alive never meets a freed id, and is right about it).  The
    earlier objects are ``earlier``'s where it is given (another graph than the new one, whose
    answer kept by id then differs from the new one's), else ``make``'s.  ``use`` runs the
    student's code: an error there is told as its own, with its line."""
    freed: set[int] = set()
    thing = (earlier or make)()
    for _ in range(REUSE_TRIES):
        ids = {id(part) for part in parts(thing)}
        use(thing)
        freed |= ids
        del thing
        gc.collect()  # objects that refer to each other: a leaf and its AccumulateGrad, a graph
        thing = make()
        if not freed.isdisjoint(id(part) for part in parts(thing)):
            return thing
        if earlier is not None:
            thing = earlier()
    return make()


def apart(make: Callable[[], T], ids: set[int], identity: Callable[[T], object] = lambda thing: thing) -> T:
    """A new object of ``make``'s whose ``identity``'s id is none of ``ids``, those of objects let
    go of that state kept by ``id()`` may still hold: one made at such an id is kept while the
    next is made, ``REUSE_TRIES`` times at most (then the last one made).  A probe so meets a
    freed id only where it puts an object there on purpose."""
    kept: list[T] = []
    thing = make()
    while id(identity(thing)) in ids and len(kept) < REUSE_TRIES:
        kept.append(thing)
        thing = make()
    return thing


def at_the_id(make: Callable[[], T], freed: int, identity: Callable[[T], object] = lambda thing: thing) -> T:
    """A new object of ``make``'s whose ``identity`` has the id ``freed``, that of an object let
    go of just before: CPython mostly hands its block to the next object of its size, but an
    allocation in between (a warnings filter, a collection) may take it first, so an object is
    made again until one does, ``REUSE_TRIES`` times at most; else the last one made.  Where an
    object ``make`` itself makes before the identity (a tuple of a new graph's) takes the block,
    every try does the same: the caller checks, and makes its program again on a fresh copy
    (ex19's ``_retained``)."""
    for _ in range(REUSE_TRIES - 1):
        thing = make()
        if id(identity(thing)) == freed:
            return thing
        del thing
    return make()


class OneId:
    """Objects made one at a time at one id: each new one put where the one before it was, which
    is let go of just then (``at_the_id``), and kept alive until the next one takes its place.
    A function that keeps its answer by the id of what it was given meets the earlier object's
    answer at every call on every run, and no object made elsewhere takes that id meanwhile
    (the last one made is never freed)."""

    def __init__(self) -> None:
        self._last: list[object] = []

    def new(self, make: Callable[[], T]) -> T:
        """A new object of ``make``'s, at the id of the one ``new`` made before, where it can."""
        thing = at_the_id(make, id(self._last.pop())) if self._last else make()
        self._last.append(thing)
        return thing
