"""What a probe saw of a result, to be compared with a later look or a fresh copy's
(``grader.spec.repeat``): the same code on the same inputs gives the same floats, and a loop that
sums the same terms in another order (a batch shuffled at each step, with Python's own random)
differs from itself only in their last digits, which is no state the student keeps.  Not the
judge's ``compare.same``: that one compares with the reference (1 equals 1.0, key order and
context keys do not count, 1e-9), where a repeated call must give the same answer but for a
float sum's order.
"""

from __future__ import annotations

import math


FLOAT_DIGITS = 1e-12
"""How far apart, relative to their size, two floats a result holds may be and still be seen as
one: a float sum's order moves its last digits (about 1e-16), state kept between calls moves
whole numbers."""


class Seen:
    """What ``seen`` made of a result, copied when it was looked at: the same, for a later look,
    where every float is within ``FLOAT_DIGITS`` of the other's and all else is equal (nan equals
    itself: a result that is nan both times did not change)."""

    __slots__ = ("plain",)

    def __init__(self, looked: object) -> None:
        self.plain = _plain(looked)  # copied: a later look must not change this one

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seen) and _alike(self.plain, other.plain)

    __hash__ = None  # type: ignore[assignment]  # compared, never kept in a set

    def __repr__(self) -> str:
        return f"Seen({self.plain!r})"

    def returned_alike(self, other: Seen | None) -> bool:
        """Whether ``other`` holds under ``RETURNED`` what this look does: ``seen`` keeps there
        what the call returned, beside what it did to its inputs (a leaf it moved), so a call that
        differs only in the latter is told by what it did, not as returning something else."""
        key = repr(RETURNED)
        return (other is not None and type(self.plain) is dict and type(other.plain) is dict
                and key in self.plain and key in other.plain and _alike(self.plain[key], other.plain[key]))


def _plain(x: object, depth: int = 0) -> object:
    """A copy of ``x`` made of Python's own lists, tuples, dicts, numbers, strings, None and bools,
    anything else by its repr, as the comparison was before (no object of the student's is copied
    by its own methods)."""
    if type(x) in (float, int, str, bool) or x is None:
        return x
    if type(x) in (list, tuple) and depth < MAX_NESTING:
        return type(x)(_plain(item, depth + 1) for item in x)
    if issubclass(type(x), dict) and depth < MAX_NESTING:  # an OrderedDict too, read through dict's own methods
        return {repr(key): _plain(item, depth + 1) for key, item in dict.items(x)}
    return repr(x)


RETURNED = "returned"
"""The key under which a ``seen`` that also looks at a call's inputs puts what the call returned."""

MAX_NESTING = 20
"""How deep a result seen is copied as it is; deeper, by its repr."""


def _alike(a: object, b: object) -> bool:
    """``a`` and ``b`` (plain JSON) the same but for the last digits of their floats."""
    if type(a) is float and type(b) is float:
        return math.isclose(a, b, rel_tol=FLOAT_DIGITS) or (math.isnan(a) and math.isnan(b))
    if type(a) in (list, tuple) and type(b) is type(a):
        return len(a) == len(b) and all(_alike(x, y) for x, y in zip(a, b))
    if type(a) is dict and type(b) is dict:
        return list(a) == list(b) and all(_alike(a[key], b[key]) for key in a)  # in order, as a repr
    return type(a) is type(b) and repr(a) == repr(b)
