"""What ex11's ``build`` returned: x, y and loss = mm(x, y) observed entry by entry (new Values,
one leaf per entry, the graph behind each entry of loss), and build called on other inputs and on
the first again (``calls_apart``), so that Values kept between calls show.
"""

from __future__ import annotations

import math
from typing import Any

from micrograph import Value
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec.facts import CONTEXT, Check
from grader.spec.graph import graph
from grader.spec.matrices import flat, matrix, row_kind, shape, summed_row
from grader.spec.one_leaf import leaf_per_entry
from grader.spec.probe import entries, num, shape_error, type_name
from grader.spec.provenance import check, list_kept, rows_kept, value_of, watching
from grader.spec.repeat import Returned, calls_apart
from grader.spec.returned_detached import detached_sources


_RETURNED = {"x": Returned(N_("the x[0][0] build returned"), N_("the x[0][0] an earlier call of build returned")),
             "y": Returned(N_("the y[0][0] build returned"), N_("the y[0][0] an earlier call of build returned"))}
"""Every first entry of x and of y build returned in this run: the statement makes new Values at
each call, and Values cached on the inputs (a dict keyed by x_row, or by each number of y) are
told by their identity."""


def _new(g: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The IDENTITY fact of the first entry of the matrix ``name`` build returned (None where it is
    no list of rows of Values: its ENTRIES facts say so)."""
    m = g[name]
    if type(m) is not list or not m or type(m[0]) is not list or not m[0] or not isinstance(m[0][0], Value):
        return None
    return _RETURNED[name].new(m[0][0])


def built(sub, x_row: list[float], y_rows: list[list[float]]) -> dict[str, Any]:
    """One call of build on new copies of ``x_row`` and ``y_rows``: what it returned, and whether it
    left the lists it was given as they were."""
    given = list(x_row)  # a new list: a build that changes it is told here, and the tests' lists stay
    rows = [list(row) for row in y_rows]  # ... and y's rows, each beside its entries as given
    before = [(row, list(row)) for row in rows]
    with watching(sub, "build") as call:
        g = sub.build(given, rows)
    if type(g) is not dict or not {"x", "y", "loss"} <= set(g):
        raise shape_error('build must return {"x": x, "y": y, "loss": loss}', "build", g)
    names: dict[str, Any] = {}
    if type(g["x"]) is list and g["x"]:  # x's row; a flat x (told by its x[0]) named as the row it is
        names = {f"x[0][{k}]": leaf for k, leaf in enumerate(g["x"][0] if type(g["x"][0]) is list else g["x"])}
    sources = detached_sources(names, flat(g["loss"]))  # a detach() of each leaf of loss's graph: told as such
    return {
        "x": entries(g["x"], "x", value_of),
        "y": entries(g["y"], "y", value_of),
        "loss": entries(g["loss"], "loss", lambda v, label: graph(v, sources or names, label=label, drawn=_ys(g["y"]))),
        "detached": {**check(Check.RETURNED_UNDETACHED, not sources, "x"), CONTEXT + "entries": True,
                     CONTEXT + "of": "loss"},
        "shape": shape(g["loss"], "loss", summed_row(g["loss"], _product_row(x_row, y_rows))),
        "row": [row_kind(g["x"], "x[0]"), row_kind(g["loss"], "loss[0]")],  # x or loss given as one flat row
        "new": [_new(g, "x"), _new(g, "y")],
        "leaves": [leaf_per_entry(g["x"], "x"), leaf_per_entry(g["y"], "y")],
        "call": call.fact, "x_row": list_kept(given, list(x_row), "build", "x_row"),
        "y_rows": rows_kept(rows, before, "build", "y_rows"),
    }


def _ys(y: Any) -> dict[str, Any]:
    """y's entries by name, for the drawing only: a y made of leaves that require grad, which loss's
    graph then reaches, shows them as y[j][k], not as nameless leaves (never compared)."""
    rows = y if type(y) is list else []
    return {f"y[{j}][{k}]": v for j, row in enumerate(rows) if type(row) is list
            for k, v in enumerate(row) if isinstance(v, Value)}


def _product_row(x_row: list[float], y_rows: list[list[float]]) -> list[float]:
    """The numbers of the one row of mm(x, y), made from the numbers build was given."""
    return [math.fsum(x * row[j] for x, row in zip(x_row, y_rows)) for j in range(len(y_rows[0]))]


def built_apart(sub, first: tuple[list[float], list[list[float]]],
                 second: tuple[list[float], list[list[float]]]) -> list[dict[str, Any]]:
    """build on one pair of inputs, another of the same shapes, then the first again
    (``calls_apart``): Values kept between calls and refilled (a module-level y) show."""
    return calls_apart(sub, lambda m, case: m.build(list(case[0]), [list(row) for row in case[1]]), _built_seen,
                       first, second, "build")


def _built_seen(g: object) -> list[Any] | str:
    """The numbers of what build returned: x, y and loss."""
    if type(g) is not dict:
        return type_name(g)
    return [matrix(g.get(name), num) for name in ("x", "y", "loss")]
