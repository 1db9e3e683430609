"""Compare observations (parent side): plain JSON values, floats with a tolerance.

Both sides come out of ``json.loads``, so they are exact built-in types and nothing here can be
fooled by a custom ``__eq__``.  ``True`` is never equal to ``1``; ints and floats compare as
numbers; ``nan`` equals ``nan``; infinities equal only themselves.  Keys that start with ``~``
are context: they do not count (see ``grader.spec.facts``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from grader.spec.facts import CONTEXT, LABEL, NOT_PLAIN, Kind, is_fact

REL_TOL = 1e-9
ABS_TOL = 1e-12


_TEXTS: dict[int, tuple[Any, str]] = {}
"""Each reference observation as JSON text, made once: every submission is compared with the
same reference (kept with the observation, so an id is never reused)."""


def identical(expected: Any, actual: Any) -> bool:
    """Whether two observations are the same JSON, type for type and key for key (``true`` is
    not ``1``, ``1`` not ``1.0``, context keys included): then they agree (``same``), and
    whatever is derived from one (a graph's replay) is derived from the other.  A correct
    submission's observations are most often the reference's own; C's encoder tells that in
    a fraction of the time ``same`` takes (``==`` first: most that differ, differ there)."""
    if expected != actual:
        return False
    known = _TEXTS.get(id(expected))
    if known is None or known[0] is not expected:
        known = _TEXTS[id(expected)] = (expected, json.dumps(expected))
    return known[1] == json.dumps(actual)


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
        return _same_dicts(expected, actual)
    return bool(expected == actual)


def _same_dicts(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Whether two dicts have the same keys that count (a key starting with ``CONTEXT`` only
    helps explain a difference, and a key one side made context, ``~changed`` for a gradient that
    was zero before and after, is not compared) and agree on each."""
    counted = {key for key in expected if not key.startswith(CONTEXT) and _compared(key, actual)}
    other = {key for key in actual if not key.startswith(CONTEXT) and _compared(key, expected)}
    return counted == other and all(same(expected[key], actual[key]) for key in counted)


def _compared(key: str, other: dict[str, Any]) -> bool:
    """Whether ``key`` counts against ``other``: not when ``other`` made it context only (has
    ``~key`` and no ``key``).  A graph node holds both (``op``, compared, is the spelling-free
    name; ``~op`` the engine's own): there ``op`` counts."""
    return CONTEXT + key not in other or key in other


def mismatched_keys(expected: Any, actual: Any) -> list[str]:
    """The top-level keys whose observations differ (for per-key feedback); [] when the
    observations are not both dicts."""
    if type(expected) is not dict or type(actual) is not dict:
        return []
    return [k for k in expected if k not in actual or not same(expected[k], actual[k])]


def not_plain(item: Any, typed: bool = True) -> bool:
    """Whether an entry is a probe's word for a result of the wrong kind (``"not a list:
    NoneType"``; with ``typed``, a result that is not plain JSON too)."""
    return type(item) is str and (item.startswith("not a") or typed and item.startswith(NOT_PLAIN))


def not_its_shape(want: Any, got: Any) -> bool:
    """Whether ``got`` is a RESULT fact of a result not of the kind asked for (``"not a dict:
    NoneType"``) where the statement's was observed in parts (a list or a dict of facts) or in
    part (``len(...)``): there are no parts to compare, and the result's own label names the call."""
    if not is_fact(got, Kind.RESULT) or type(got.get(LABEL)) is not str or not not_plain(got.get("value"), False):
        return False
    return type(want) in (list, dict) and not is_fact(want) or is_fact(want, Kind.RESULT) and want[LABEL] != got[LABEL]
