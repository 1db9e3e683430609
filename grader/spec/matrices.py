"""Results that are matrices (lists of rows of Values), observed as the statement's would be.

``build`` returns x, y and loss as nested lists; a slip in their shape (one flat row, loss[0]
returned as loss, a float where a row is asked) is told by what the result is, not by an error
of the probe's: each observation here says what it found in place of a list.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from grader.spec.facts import CONTEXT, NOT_PLAIN
from grader.spec.probe import close, num, type_name
from grader.spec.provenance import result_of


def as_list(xs: object, observe: Callable[[Any], Any]) -> list | str:
    """``observe`` of each item of a list returned, or what was returned in its place."""
    if type(xs) is not list:
        return f"not a list: {type_name(xs)}"
    return [observe(item) for item in xs]


def flat(m: object) -> list[Any]:
    """The entries of the rows of a matrix returned (none where it is no list of rows)."""
    return [v for row in m if type(row) is list for v in row] if type(m) is list else []


def matrix(m: object, observe: Callable[[Any], Any]) -> list | str:
    """``observe`` of each entry of a list of rows returned, or what was returned in place of a list."""
    return as_list(m, lambda row: as_list(row, observe))


def shape(m: object, name: str, summed: bool = False) -> list[dict[str, Any]]:
    """len(name) and len(name[0]) of a matrix returned: a loss of another shape is told by these
    (its entries cannot be compared one by one); nothing for what is no list of rows.  ``summed``:
    name[0] holds one entry whose number is the sum of every entry the statement's row holds
    (``summed_row``), told beside len(name[0])."""
    if type(m) is not list or not m or type(m[0]) is not list:
        return []
    row = result_of(len(m[0]), f"len({name}[0])")
    return [result_of(len(m), f"len({name})"), {**row, CONTEXT + "summed": name} if summed else row]


def summed_row(m: object, row: list[float]) -> bool:
    """Whether ``m`` is a list of rows whose first row holds one entry, a number or a Value whose
    number is the sum of ``row``'s numbers (up to float rounding), where ``row`` has several: the
    statement's row added up into one entry."""
    if type(m) is not list or not m or type(m[0]) is not list or len(m[0]) != 1 or len(row) < 2:
        return False
    got = num(m[0][0])
    return type(got) is float and close(got, math.fsum(row))


def row_kind(m: object, label: str) -> dict[str, Any] | None:
    """The kind of a returned matrix's first entry, a row (a list) in the statement's: loss[0]
    returned as loss, a list of Values, is told by what its first entry is."""
    if type(m) is not list or not m:
        return None
    return result_of(f"{NOT_PLAIN}{type_name(m[0])}", label)
