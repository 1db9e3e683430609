"""Facts of a matrix given as a list of rows (ex12's input and output): whether it is rows at all,
and whether its rows come in the order of the rows it was made from.

A layer's batch is a list of rows; a row put at another place (the rows reversed) holds numbers
of the right kind, and only its place is wrong: told with the row and the one whose numbers it
holds, not as a different number.
"""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph import nn

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import num
from grader.spec.provenance import check


def rows_fact(output: object) -> dict[str, Any]:
    """The ROWS fact of forward's output: one list per input row, as net(input) returns, told
    before its entries (a flat list has none to compare, and its shape is the mistake)."""
    rows = type(output) is list and all(type(row) is list for row in output)
    flat = type(output) is list and bool(output) and all(isinstance(v, micrograph.Value) for v in output)
    return {**check(Check.ROWS, rows, "output"), CONTEXT + "flat": flat}


def in_order(made: object, rows: list[list[Any]], label: str = "input", of: str = "rows",
             counted: bool = True) -> dict[str, Any]:
    """The ROWS_IN_ORDER fact of forward's input (or output): a row holding the numbers of another
    of the rows given (``of``: the rows reversed) is told with the first such row and the row
    whose numbers it holds.  Fewer rows than given, each of them the numbers of one given (a loop
    that rebinds input to each row in turn keeps the last), is told as rows missing (``~fewer``,
    with the rows whose numbers are there): nothing was put in another order.  Fewer rows than
    given, some of other numbers, is told as fewer rows alone (``~fewer_other``).  A row whose
    numbers another row holds too (a copy of a row) is told as repeated (``~repeated``), not as put
    in another order; rows that are one list object (``[row] * m``,
    ``[[...] * n] * m``, one list appended for every row) are told as that list, by their places (``~one_list``).  Not where
    ``counted`` is False (forward's output, made by net from some rows of input: what loss's graph
    reaches tells it)."""
    numbers = [[num(v) for v in row] for row in made] if type(made) is list and all(
        type(row) is list for row in made) else []
    if counted and (one := _one_list(made if numbers else [], label)):
        return {**check(Check.ROWS_IN_ORDER, False, label), CONTEXT + "one_list": True, CONTEXT + "missing": one}
    if counted and 0 < len(numbers) < len(rows) and all(row in rows for row in numbers):
        return {**check(Check.ROWS_IN_ORDER, False, label), CONTEXT + "fewer": True, CONTEXT + "missing": label,
                CONTEXT + "kept": ", ".join(f"{of}[{rows.index(row)}]" for row in numbers)}
    if counted and 0 < len(numbers) < len(rows):  # fewer rows, not all of them rows given: no row put elsewhere
        return {**check(Check.ROWS_IN_ORDER, False, label), CONTEXT + "fewer_other": True}
    for i, row in enumerate(numbers):
        if i < len(rows) and row != rows[i] and row in rows:
            return {**check(Check.ROWS_IN_ORDER, False, label), CONTEXT + "missing": f"{label}[{i}]",
                    CONTEXT + "kept": f"{of}[{rows.index(row)}]",
                    **({CONTEXT + "repeated": True} if numbers.count(row) > 1 else {})}  # ([row] * n): no reorder
    return check(Check.ROWS_IN_ORDER, True, label)


def _one_list(rows: list[Any], label: str) -> str:
    """The places of the rows of ``rows`` that are the list object an earlier row is, with that
    earlier row (``input[0], input[1]``), for the first such list; "" where every row is a list of
    its own.  Those rows hold one list's Values, whatever numbers were put in it."""
    for row in rows:
        same = [j for j, other in enumerate(rows) if other is row]
        if len(same) > 1:
            return ", ".join(f"{label}[{j}]" for j in same)
    return ""


def net_rows(net: nn.Linear, inputs: object) -> list[list[Any]]:
    """The numbers of net(input) for forward's input, computed by the probe (nothing recorded);
    none where that input is not rows the net takes (other facts tell it)."""
    try:
        with micrograph.no_grad():
            return [[num(v) for v in row] for row in net(inputs)]
    except Exception:  # noqa: BLE001 - an input of another shape: told by the input's facts
        return []
