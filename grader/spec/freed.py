"""An object put where an earlier one was, with its id: what state kept by ``id()`` takes for the
earlier one.

A function that keeps something between calls by the id of what it was given (an optimizer per
``id(model)``, the ids of the nodes whose values retain their grad) is right for as long as
those objects live, and wrong once CPython gives a new object a freed one's id: on one run and
not on the next, unless the probe puts it there.  ``at_a_freed_id`` does, checking each time,
so that the score does not depend on where the allocator put an object."""

from __future__ import annotations

import gc
import sys
import weakref
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")

REUSE_TRIES = 256
"""Objects made, handed on and freed in turn, at most, until a new one takes a freed one's id."""

KEPT_TRIES = 3
"""Tries in a row after which ``at_a_freed_id`` stops where each object handed to ``use``, and
every earlier one, was still alive once let go of (what ``use`` ran keeps them: a history of
every model a loop was given): an object still alive frees no id, and each try runs the
student's code again."""


def at_a_freed_id(make: Callable[[], T], use: Callable[[T], object],
                  parts: Callable[[T], Iterable[object]] = lambda thing: (thing,),
                  earlier: Callable[[], T] | None = None, candidates: int = 1) -> T:
    """A new object of ``make``'s one of whose ``parts`` (itself, or parts of it: a value's
    node, every node of a graph) has the id of a part of an earlier one, which was handed to
    ``use`` and then let go of.  After each try up to ``candidates`` objects are made, each kept
    while the next is, without running ``use``: where ``use`` is costly (a training loop) and the
    allocator hands a freed block to another object first (a list's goes to the next list made),
    more of them reach the freed one than more tries would.  After ``REUSE_TRIES`` tries none
    did, a new one all the same; after ``KEPT_TRIES`` in a row where what ``use`` ran kept every
    object it was given alive, too: an object still alive frees no id (a history of every model
    a loop was given, which is right), and the caller's check of the new one then holds, nothing
    told, with no more runs of the student's code.  The earlier objects are ``earlier``'s where
    it is given (another graph than the new one, whose answer kept by id then differs from the
    new one's), else ``make``'s.  ``use`` runs the student's code: an error there is told as its
    own, with its line."""
    freed: set[int] = set()
    alive = _Alive()
    kept = 0  # tries in a row after which every object handed to use still lived
    thing = (earlier or make)()
    for _ in range(REUSE_TRIES):
        handed = tuple(parts(thing))  # no list: a new list would take a list's freed place first
        counts = alive.watch(handed)
        use(thing)
        held = alive.gained(handed, counts)
        freed.update(id(part) for part in handed)
        del counts, handed, thing
        gc.collect()  # objects that refer to each other: a leaf and its AccumulateGrad, a graph
        thing = make()
        missed: list[T] = []
        while freed.isdisjoint(id(part) for part in parts(thing)):
            if len(missed) == candidates - 1:
                break
            missed.append(thing)
            thing = make()
        else:
            return thing
        del missed
        kept = kept + 1 if held and alive.living() else 0
        if kept == KEPT_TRIES:
            return thing
        if earlier is not None:
            thing = earlier()
    return make()


class _Alive:
    """Whether the parts handed to ``use`` outlive the probe's letting go of them: through weak
    references, each kept until the search ends, so that a part ``use`` keeps is seen however
    many tries later; a part that takes none (a list) by its count of references, which rose in
    ``use`` where something ``use`` ran keeps it."""

    def __init__(self) -> None:
        self._refs: list[weakref.ref[object]] = []

    def watch(self, parts: tuple[object, ...]) -> dict[int, int]:
        """Watch ``parts``; the counts of references of those that take no weak reference, by
        their place in ``parts``."""
        counted = []
        for k in range(len(parts)):
            try:
                self._refs.append(weakref.ref(parts[k]))
            except TypeError:
                counted.append(k)
        return {k: sys.getrefcount(parts[k]) for k in counted}

    @staticmethod
    def gained(parts: tuple[object, ...], counts: dict[int, int]) -> bool:
        """Whether each part that takes no weak reference gained a reference in ``use``
        (``counts`` read by ``watch``, the probe holding the same references as now)."""
        return all(sys.getrefcount(parts[k]) > count for k, count in counts.items())

    def living(self) -> bool:
        """Whether every part watched so far that takes a weak reference still lives."""
        return all(ref() is not None for ref in self._refs)


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
