"""ex11 vjp: tests for backward with a gradient argument (a vector-Jacobian product) through
``mm``, the documents' one-row-per-backward experiment, and why x.grad must be zeroed between.

The probes build their own graphs (``_graph``) for ``vjp`` and ``jacobian_rows``, so those are
judged apart from ``build``, on shapes and numbers that are not in the exercise text.
"""

from __future__ import annotations

from typing import Any, Callable

import micrograph
from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import error_text, grad, num, show, value

EXERCISE = Exercise("ex11", "backward(gradient): the vector-Jacobian product", module="ex11_vjp")

# (x_row, y_rows): x is 1 x n, y is n x m; none of them is in the exercise text.
SQUARE = [([0.5, -1.5], [[2.0, 1.0], [-1.0, 3.0]]), ([-2.0, 0.25], [[1.5, -4.0], [2.0, 0.5]])]
OTHER_SHAPES = [
    ([1.0, -2.0, 0.5], [[2.0, -1.0], [0.5, 3.0], [-4.0, 1.0]]),
    ([3.0, 1.5], [[1.0, -2.0, 0.5, 4.0], [-1.0, 2.5, 3.0, -0.5]]),
    ([-0.75], [[2.0, -3.0, 5.0]]),
]


def _graph(x_row: list[float], y_rows: list[list[float]], y_grad: bool = False):
    """The probe's own x (leaves that require grad), y and loss = mm(x, y)."""
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v, requires_grad=y_grad) for v in row] for row in y_rows]
    return x, y, micrograph.mm(x, y)


def _list(xs: object, observe: Callable[[Any], Any]) -> list | str:
    if type(xs) is not list:
        return f"not a list: {type(xs).__name__}"
    return [observe(item) for item in xs]


def _matrix(m: object, observe: Callable[[Any], Any]) -> list | str:
    return _list(m, lambda row: _list(row, observe))


def _attempt(fn: Callable[..., Any], *args: Any) -> tuple[Any, str | None]:
    """``fn(*args)`` and None, or None and the error it raised (NotImplementedError goes through)."""
    try:
        return fn(*args), None
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - a backward that fails is an observation here
        return None, error_text(exc)


def _rows(sub, x_row, y_rows, zero_between: bool) -> list | str:
    x, _, loss = _graph(x_row, y_rows)
    rows, error = _attempt(sub.jacobian_rows, x, loss, zero_between)
    return error if error is not None else _matrix(rows, num)


@EXERCISE.test(
    "build makes loss = mm(x, y)",
    points=2,
    public=True,
    feedback="x is [[...]], one row of new leaves that require grad; y is a list of rows of "
    "Values that do not; loss = micrograph.mm(x, y), and no backward yet.",
    key_feedback={
        "x": "x must be one row [[...]] of new leaves Value(v, requires_grad=True)",
        "y": "y's entries are plain Values: the documents' y does not require grad",
        "loss": "loss = micrograph.mm(x, y): one row with an entry per column of y",
    },
)
def build_public(sub):
    graphs = [sub.build(x_row, y_rows) for x_row, y_rows in (SQUARE[0], OTHER_SHAPES[1])]
    return {key: [_matrix(g[key], value) for g in graphs] for key in ("x", "y", "loss")}


@EXERCISE.test(
    "a gradient vector gives v times the Jacobian",
    points=2,
    feedback="Pass v in loss's shape, [v], as the gradient: micrograph.backward(loss, [v]); "
    "then read x's gradients.",
)
def vjp_vectors(sub):
    cases = [
        (SQUARE[0], [1.0, 0.0]),
        (SQUARE[0], [1.0, 1.0]),
        (SQUARE[1], [2.0, -0.5]),
        (OTHER_SHAPES[0], [0.0, 3.0]),
        (OTHER_SHAPES[1], [1.0, -1.0, 0.5, 2.0]),
    ]
    out = []
    for (x_row, y_rows), v in cases:
        x, _, loss = _graph(x_row, y_rows)
        grads, error = _attempt(sub.vjp, x, loss, v)
        out.append(error if error is not None else _list(grads, num))
    return out


@EXERCISE.test(
    "y gets its gradient too when it requires grad",
    points=1,
    feedback="Backpropagate once from loss with the gradient [v]: every leaf in the graph that "
    "requires grad receives its part of the vector-Jacobian product.",
)
def vjp_y_grad(sub):
    out = []
    for (x_row, y_rows), v in [(SQUARE[1], [1.0, 1.0]), (OTHER_SHAPES[0], [2.0, -1.0])]:
        x, y, loss = _graph(x_row, y_rows, y_grad=True)
        _, error = _attempt(sub.vjp, x, loss, v)
        out.append(error if error is not None else _matrix(y, grad))
    return out


@EXERCISE.test(
    "one Jacobian row per backward",
    points=2,
    public=True,
    feedback="For each entry j of loss, backpropagate with the one-hot gradient [[0, .., 1, .., 0]] "
    "keeping the graph (retain_graph=True) for the calls still to come, record x's gradients, "
    "then zero them with leaf.grad.zero_().",
)
def rows_public(sub):
    return [_rows(sub, x_row, y_rows, True) for x_row, y_rows in SQUARE]


@EXERCISE.test(
    "Jacobian rows for other shapes",
    points=2,
    feedback="Make one backward per entry of loss, however many columns y has; a product in mm "
    "saves its operands, so every backward but the last needs retain_graph=True.",
)
def rows_shapes(sub):
    return [_rows(sub, x_row, y_rows, True) for x_row, y_rows in OTHER_SHAPES]


@EXERCISE.test(
    "without zeroing the records add up",
    points=2,
    feedback="With zero_between=False leave x's gradients alone between the calls: each "
    "backward then adds its row to what the earlier ones left in .grad.",
)
def rows_not_zeroed(sub):
    return [_rows(sub, x_row, y_rows, False) for x_row, y_rows in SQUARE + OTHER_SHAPES[:2]]


@EXERCISE.diagram
def draw(sub):
    g = sub.build([1.5, -0.5], [[2.0, 1.0], [0.5, -1.0]])
    x, loss = g["x"], g["loss"]
    names = {"x0": x[0][0], "x1": x[0][1], "loss0": loss[0][0], "loss1": loss[0][1]}
    show(loss[0], names)  # drawn as built if the backward calls fail
    sub.jacobian_rows(x, loss)
    return loss[0], names
