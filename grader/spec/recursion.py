"""How deep a call of the student's code nested its own functions in one another.

A walk with an explicit stack calls each of its functions one level deep, whatever the graph;
a recursive walk calls itself once more for each node along a chain, one call inside another,
and on a long chain that depth shows even where the student raised Python's recursion limit so
that no ``RecursionError`` stops it.  The statement of ex13 asks for a walk without recursion.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, ModuleType
from typing import Any

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check

DEEP = 200
"""Nested calls of one function of the student's that no walk with an explicit stack makes, and a
recursive walk of a chain of 1,200 ops passes."""


@contextlib.contextmanager
def nesting(sub: ModuleType) -> Iterator[dict[str, int]]:
    """The deepest nesting of each function of the student's module (by name) while the block
    runs, filled as it runs (a profile hook: only around the call observed)."""
    namespace, previous = vars(sub), getprofile()
    depth: dict[object, int] = {}
    deepest: dict[str, int] = {}

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if frame.f_globals is not namespace or event not in ("call", "return"):
            return
        code = frame.f_code
        depth[code] = depth.get(code, 0) + (1 if event == "call" else -1)
        deepest[code.co_name] = max(deepest.get(code.co_name, 0), depth[code])

    setprofile(sample)
    try:
        yield deepest
    finally:
        setprofile(previous)


def not_recursive(deepest: dict[str, int], label: str) -> dict[str, Any]:
    """The NOT_RECURSIVE fact of one call: no function of the student's nested ``DEEP`` calls of
    itself; else context ``~function``, the first that did."""
    name = next((n for n, d in deepest.items() if d >= DEEP), None)
    fact = check(Check.NOT_RECURSIVE, name is None, label)
    return fact if name is None else {**fact, CONTEXT + "function": name}
