"""How the entries of a student's list or dict relate to the statement's where both hold the
same kind of entries: the same ones in another order, two swapped, each repeat kept once, all
alike. Apart from the sentences (``results``), because these are comparisons of plain values
that say nothing to the student themselves, and ``results`` picks a sentence by them."""

from __future__ import annotations

from typing import Any

from grader.judge.compare import same


def repeats_left_out(want: list[Any], got: list[Any]) -> bool:
    """Whether ``got`` is ``want`` with each entry kept once, where it repeats (the same entries,
    in order, without the repeats), entries that are lists themselves (paths, each a list of
    names): the statement's list holds an entry twice on purpose.  A list of names that lacks a
    repeated name is another walk (a chain that followed one input), not a repeat left out."""
    if not all(type(item) is list for item in want):
        return False
    once: list[Any] = []
    for item in want:
        if not any(same(item, kept) for kept in once):
            once.append(item)
    return len(once) == len(got) and all(same(a, b) for a, b in zip(once, got))


def swapped_keys(want: dict[str, Any], got: dict[str, Any]) -> tuple[str, str] | None:
    """The two keys of a dict whose entries are the statement's under each other's key (and
    every other entry its own), where the statement's two differ: ``{"w": x's, "x": w's}``."""
    differ = [k for k in want if not same(want[k], got[k])]
    if len(differ) != 2:
        return None
    a, b = differ
    return (a, b) if same(want[a], got[b]) and same(want[b], got[a]) and not same(want[a], want[b]) else None


def alike(items: list[Any]) -> bool:
    """Whether every entry of a list is the same as its first."""
    return all(same(item, items[0]) for item in items[1:])


def reordered_numbers(want: list[Any], got: list[Any]) -> bool:
    """Whether ``got`` holds the numbers of ``want`` (each the same within the tolerance), in
    another order: (dy/dx, dy/dw) for (dy/dw, dy/dx).  Only short lists of numbers."""
    if not 1 < len(want) == len(got) <= MAX_REORDERED or any(type(x) not in (int, float) for x in (*want, *got)):
        return False
    free = list(want)
    for g in got:
        match = next((i for i, w in enumerate(free) if same(w, g)), None)
        if match is None:
            return False
        free.pop(match)
    return True


MAX_REORDERED = 32
"""The longest list of numbers whose entries are matched in another order (a layer's 16
parameter gradients read column by column, not in net.parameters()' order)."""


def sorted_reprs(items: list[Any]) -> list[str] | None:
    """A list's entries as a sorted list of their reprs (to tell another order), or None when
    numbers are among them (compared with a tolerance, so never reordered here)."""
    if any(type(x) in (int, float) for x in items):
        return None
    return sorted(repr(x) for x in items)
