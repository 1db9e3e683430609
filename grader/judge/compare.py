"""Compare observations (parent side): plain JSON values, floats with a tolerance.

Both sides come out of ``json.loads``, so they are exact built-in types and nothing here can be
fooled by a custom ``__eq__``.  ``True`` is never equal to ``1``; ints and floats compare as
numbers; ``nan`` equals ``nan``; infinities equal only themselves.  Keys that start with ``~``
are context: they do not count (see ``grader.spec.facts``).
"""

from __future__ import annotations

import math
from typing import Any

from grader.spec.facts import CONTEXT

REL_TOL = 1e-9
ABS_TOL = 1e-12


def same(expected: Any, actual: Any) -> bool:
    """Whether two observations agree."""
    if type(expected) is bool or type(actual) is bool:
        return type(expected) is type(actual) and expected == actual
    if type(expected) is int and type(actual) is int:
        return expected == actual
    if type(expected) in (int, float) and type(actual) in (int, float):
        try:
            if math.isnan(expected) or math.isnan(actual):
                return math.isnan(expected) and math.isnan(actual)
            return math.isclose(expected, actual, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        except OverflowError:  # an int beyond float range
            return False
    if type(expected) is not type(actual):
        return False
    if type(expected) is list:
        return len(expected) == len(actual) and all(map(same, expected, actual))
    if type(expected) is dict:
        keys = _compared(expected)
        return keys == _compared(actual) and all(same(expected[k], actual[k]) for k in keys)
    return bool(expected == actual)


def _compared(observation: dict[str, Any]) -> set[str]:
    """The keys that count: a key starting with ``CONTEXT`` only helps explain a difference."""
    return {k for k in observation if not k.startswith(CONTEXT)}


def mismatched_keys(expected: Any, actual: Any) -> list[str]:
    """The top-level keys whose observations differ (for per-key feedback); [] when the
    observations are not both dicts."""
    if type(expected) is not dict or type(actual) is not dict:
        return []
    return [k for k in expected if k not in actual or not same(expected[k], actual[k])]
