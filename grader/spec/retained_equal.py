"""A node retained for being equal (==) to a named one.  ``backward_retaining(w, x, names)`` that
picks its nodes with ``if g[n] in [g[m] for m in names]`` retains an unnamed node whenever it holds
a named node's number: a list's ``in`` compares with ``==`` where ``is`` fails, and a Value that
equals another is true.  Such a call retains more nodes than the names, on some inputs only.

``retained_as_equal`` tells it from code that retains an extra node whatever the numbers (y always)
by one more call, on inputs where all five Values differ: there that node is left alone.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from micrograph import Value

from grader.spec.mode_restored import called

DISTINCT = (0.5, 1.25)
"""w and x where build_graph's five Values all differ (w, x, a = 1.75, b = 1.5, y = 2.625)."""


def _retained(v: object) -> bool:
    return isinstance(v, Value) and v.retains_grad


def retained_as_equal(sub: ModuleType, g: dict[str, Any], names: list[str]) -> dict[str, str]:
    """For each node of ``g`` (a, b, y) that retains its gradient though not named, and holds the
    number of a node named: that named node, where the same call on ``DISTINCT`` leaves it alone
    (retains no such node).  Empty where there is none, or that call raised or returned no dict."""
    named = [m for m in dict.fromkeys(names) if isinstance(g.get(m), Value)]
    equal = {n: next((m for m in named if g[m].item() == g[n].item()), None)
             for n in ("a", "b", "y") if n not in names and _retained(g.get(n))}
    equal = {n: m for n, m in equal.items() if m is not None}
    if not equal:
        return {}
    try:
        again = called("backward_retaining", sub.backward_retaining, *DISTINCT, list(names))
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the test's own calls
        return {}
    return {n: m for n, m in equal.items() if type(again) is dict and isinstance(again.get(n), Value)
            and not again[n].retains_grad}
