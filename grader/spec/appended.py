"""Whether a list a call returned is still being filled after the call: by hooks of the
student's, registered on the leaves it was given, which append to it at every backward pass.

A hook that records (``w.register_hook(lambda g: history.append(g.item()))``) runs whenever a
backward pass reaches its leaf, not when the student's code reads the gradient: registered once
per step it runs once more at each later step, and the entries come in the order the pass
reaches the leaves, not in the leaves' order.  The list it fills says neither; a backward pass
the probe runs through the leaves after the call shows the hooks at work, since the list grows,
or, where the hooks write its entries (``out[k] = g.item()``), since its numbers change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import micrograph
from micrograph import Value, mul

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def appended_later(answer: object, leaves: Sequence[Value], label: str, leaf: str) -> dict[str, Any]:
    """The CHECK fact that a backward pass through each of ``leaves`` (named ``leaf`` in the
    sentence), run after the call, leaves the list the call returned as it was: as long, and
    holding the same objects, in its rows too (``~rewritten``: hooks left on the leaves that write
    its entries over, rather than append).  Objects, not numbers: a list of the .grad Values
    themselves shows what the pass adds into them in place, and no hook does that.  It writes
    the leaves' .grad: a probe takes it after every other fact of the call."""
    if type(answer) is not list:
        return check(Check.UNAPPENDED, None, label)
    length, entries = len(answer), _entries(answer)
    for v in leaves:
        if isinstance(v, Value) and v.requires_grad:
            try:
                with micrograph.enable_grad():
                    mul(v, 1.0).backward()
            except Exception:  # noqa: BLE001 - a hook of the student's that raises: nothing to tell
                return check(Check.UNAPPENDED, None, label)
    rewritten = len(answer) == length and not _same(_entries(answer), entries)  # written over, not grown
    return {**check(Check.UNAPPENDED, len(answer) == length and not rewritten, label), CONTEXT + "leaf": leaf,
            CONTEXT + "rewritten": rewritten}


MAX_DEPTH = 2
"""How deep a list's rows are looked into (a list of rows of numbers)."""


def _entries(answer: list[Any], depth: int = 0) -> list[Any]:
    """A copy of ``answer``'s entries, each row copied too: the objects it holds now (kept alive,
    so that no other object takes an id of theirs)."""
    return [_entries(x, depth + 1) if type(x) is list and depth < MAX_DEPTH else x for x in answer]


def _same(now: list[Any], was: list[Any]) -> bool:
    """Whether two copies made by ``_entries`` hold the same objects in the same places."""
    return len(now) == len(was) and all(
        _same(a, b) if type(a) is list and type(b) is list else a is b for a, b in zip(now, was))
