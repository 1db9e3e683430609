"""ex11 vjp: backward with a gradient argument computes a vector-Jacobian product.

The idea
--------
``loss.backward()`` with no argument needs a single number to start from: it seeds the root
with d(loss)/d(loss) = 1.  When the result is a matrix, such as ``loss = mm(x, y)`` with x a
1 x n matrix and y an n x m matrix (loss is 1 x m), there is no single number to start from.
You pass one instead for every entry of loss, a vector v with loss's shape, and backward
computes the vector-Jacobian product (向量-雅可比积) v · J:

    x.grad[k] = sum over j of  v[j] * d loss[j] / d x[k]

For a matrix product, loss[j] = sum over k of x[k] * y[k][j], so d loss[j] / d x[k] = y[k][j]
and x.grad[k] = sum over j of v[j] * y[k][j].  A one-hot v (1 at entry j, 0 elsewhere) picks
out one row of the Jacobian: the gradient of loss[j] alone.

The documents do this with x = [[1, 2]] and y = [[3, 4], [5, 6]] (loss = [[13, 16]]):
``backward`` with [[1, 0]] gives x.grad = [3, 5] (the gradient of loss[0] = 1*3 + 2*5), then
``x.grad.data.zero_()``, then ``backward`` with [[0, 1]] gives x.grad = [4, 6].  Two details
make that work:

* ``retain_graph=True`` on every backward but the last.  The products inside mm save their
  operands, and a backward without it frees them (ex04): the next backward would fail.
* Zeroing x.grad in between.  Gradients accumulate (ex05): without zeroing, the second
  backward *adds* [4, 6] to [3, 5] and you read [7, 11], which is the gradient of
  loss[0] + loss[1] (the product with v = [[1, 1]]), not the second row of the Jacobian.

In micrograph a matrix is a nested list of Values (rows), ``micrograph.mm(x, y)`` multiplies
two of them, and ``micrograph.backward(loss, [[1, 0]], retain_graph=True)`` backpropagates
from every entry of loss at once, the gradient given in loss's shape.  Always pass it: without
one, ``micrograph.backward(loss)`` raises "grad can be implicitly created only for scalar
outputs", as torch's ``loss.backward()`` does on a 1 x 2 tensor.  (A flat list of Values, such
as ``loss[0]``, is a list of scalar outputs: each is seeded with 1, v all ones, as
``torch.autograd.backward`` does for a list of scalars.)

A small example on other numbers: x = [[2, -1]], y = [[1, 0, 2], [3, 1, -1]] give
loss = [[-1, -1, 5]].  Backward with [[1, 0, 0]], [[0, 1, 0]], [[0, 0, 1]] (zeroing in
between) gives x.grad = [1, 3], then [0, 1], then [2, -1]: the columns of y.  Without zeroing
the second and third read [1, 4] and [3, 3].

What to write
-------------
``build`` makes the documents' graph; ``vjp`` backpropagates one vector through a graph it
is given; ``jacobian_rows`` repeats the documents' experiment, with or without zeroing.
"""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph import Value

Matrix = list[list[Value]]


def build(x_row: list[float], y_rows: list[list[float]]) -> dict[str, Any]:
    """The documents' graph: return {"x": x, "y": y, "loss": loss}.

    x is a 1 x n matrix ``[[...]]`` of new leaves that require grad, made from ``x_row``;
    y is an n x m matrix of new Values that do not require grad (the documents' y is a plain
    Variable), made from ``y_rows``; loss = ``micrograph.mm(x, y)``, a 1 x m matrix.
    Do not call backward here.
    """
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v) for v in row] for row in y_rows]
    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}


def x_grads(x: Matrix) -> list[float]:
    """The gradients of x's entries as floats (x is one row; given: you need not edit it)."""
    return [v.grad.item() for v in x[0]]


def vjp(x: Matrix, loss: Matrix, v: list[float]) -> list[float]:
    """Backpropagate once from ``loss`` with the gradient ``[v]`` and return x's gradients.

    ``loss`` is ``mm(x, y)`` (1 x m) for the leaves ``x`` (1 x n), new ones whose .grad is
    still None; ``v`` has m numbers, one per entry of loss, and is passed in loss's shape:
    ``[v]``.  The answer is v times the Jacobian, x.grad[k] = sum over j of v[j] * y[k][j].
    Leave x's gradients as backward wrote them.
    """
    micrograph.backward(loss, [v])
    return x_grads(x)


def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True) -> list[list[float]]:
    """The documents' experiment on the graph you are given: one backward per entry of loss.

    For j = 0, 1, ..., m - 1: backpropagate from ``loss`` with the one-hot gradient that is 1
    at entry j and 0 elsewhere (the documents' [[1, 0]], then [[0, 1]]), keeping the graph for
    the calls still to come (retain_graph=True) and letting the last one free it (no
    retain_graph=True: no call comes after it); record x's gradients; then, if
    ``zero_between``, zero them in place (``leaf.grad.zero_()``, the documents'
    ``x.grad.data.zero_()``).  Return the m recorded lists.  With zeroing they are the rows
    of the Jacobian; without, you will see why zeroing is needed.  Leave x's gradients as the
    loop leaves them (not set to None): the caller reads them after the call.
    """
    m = len(loss[0])
    rows = []
    for j in range(m):
        one_hot = [1.0 if i == j else 0.0 for i in range(m)]
        # mm's products saved their operands; keep them for the next call (the last may free them).
        micrograph.backward(loss, [one_hot], retain_graph=j < m - 1)
        rows.append(x_grads(x))
        if zero_between:
            # backward adds into .grad: without this, the next record would be this row plus
            # the next one (the gradient of loss[j] + loss[j + 1]), not the next row alone.
            for leaf in x[0]:
                leaf.grad.zero_()
    return rows
