"""``nn.Linear``'s forward and its one node, ``AddmmBackward0``, as torch makes them.

torch computes a layer's whole output with one ``addmm(bias, input, weight.t())`` and records one node for it, and so
does micrograph: entry ``[r][j]`` of ``net(batch)`` is output ``r * out_features + j`` of one node, so a second
backward through a layer fails before it writes any gradient. Where torch's node differs: its edges are three tensors
(``bias``, ``input``, ``weight.t()``), here one per number (the biases, then the inputs row by row, then the weights).
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

from micrograph.grad_mode import is_recording
from micrograph.node import NO_EDGE, Grad, Node
from micrograph.value import Value


class AddmmBackward0(Node):
    """The node of one ``Linear`` call: one output per entry of the result, one edge per number used.
    Its backward is three small matrix products, linear in rows x inputs x outputs."""

    def __init__(self, edges: tuple[Any, ...], shape: tuple[int, int, int], bias: bool) -> None:
        super().__init__(edges)
        self.shape, self.has_bias = shape, bias  # shape: rows, in_features, out_features
        self.num_outputs = shape[0] * shape[2]

    def apply(self, grads: list[Grad]) -> list[Grad]:
        rows, n_in, n_out = self.shape
        create_graph = any(g is not None and type(g) is not float for g in grads)
        saved = self.unpack(create_graph)  # the second-backward and in-place checks, before anything
        xs, ws = saved[:rows * n_in], saved[rows * n_in:]
        g = [0.0 if x is None else x for x in grads]
        out: list[Grad] = []
        if self.has_bias:  # grad.sum(0)
            out += [_sum(g[j::n_out]) for j in range(n_out)]
        for r in range(rows):  # grad @ weight
            row = g[r * n_out:(r + 1) * n_out]
            out += [None if ws[k] is None else _dot(row, ws[k::n_in]) for k in range(n_in)]
        for j in range(n_out):  # (input.t() @ grad).t()
            col = g[j::n_out]
            out += [None if xs[k] is None else _dot(xs[k::n_in], col) for k in range(n_in)]
        return out


class MmBackward0(AddmmBackward0):
    """A ``Linear`` without bias: torch's ``matmul`` node."""


def _sum(terms: list[Any]) -> Any:
    total = terms[0]
    if type(total) is float:
        total += 0.0  # BLAS accumulates from +0: an exact zero gradient is 0, never -0, as torch's
    for t in terms[1:]:
        total = total + t
    return total


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    return _sum([x * y for x, y in zip(a, b)])


def forward(rows: Sequence[Sequence[Any]], weight: list[list[Value]], bias: list[Value] | None) -> list[list[Value]]:
    """``addmm(bias, rows, weight.t())``: the entries as Values, the outputs of one node when recorded."""
    n_in, n_out = len(weight[0]), len(weight)
    xs = [x for row in rows for x in row]
    ws = [w for row in weight for w in row]
    for x in xs:
        if not isinstance(x, (Value, numbers.Real)):
            raise TypeError(f"Linear: a row holds numbers or Values, got a {type(x).__name__}: {x!r:.40}")
    x_num = [float(x.item() if isinstance(x, Value) else x) for x in xs]
    w_num = [w.item() for w in ws]
    out = [[Value(_dot(x_num[r * n_in:(r + 1) * n_in], w_num[j * n_in:(j + 1) * n_in])
                  + (0.0 if bias is None else bias[j].item())) for j in range(n_out)] for r in range(len(rows))]
    if is_recording():
        _record(xs, ws, bias, out, (len(rows), n_in, n_out))
    return out


def _record(xs: list[Any], ws: list[Value], bias: list[Value] | None, out: list[list[Value]],
            shape: tuple[int, int, int]) -> None:
    """The node of one call, when some number used requires grad: it saves the input rows (for the weights'
    gradient) and the weights (for the input's), each only when needed, as ``addmm`` saves ``mat1``/``mat2``."""
    inputs: list[Any] = [*(bias or ()), *xs, *ws]
    edges = tuple(x.gradient_edge() if isinstance(x, Value) else NO_EDGE for x in inputs)
    if all(fn is None for fn, _ in edges):
        return
    n_bias = len(bias or ())
    needs_x = any(fn is not None for fn, _ in edges[n_bias + len(xs):])  # weights need grad: keep the input
    needs_w = any(fn is not None for fn, _ in edges[n_bias:n_bias + len(xs)])  # input needs grad: keep the weights
    node = (AddmmBackward0 if bias is not None else MmBackward0)(edges, shape, bias is not None)
    node.save(tuple([*((x if isinstance(x, Value) else float(x)) if needs_x else None for x in xs),
                     *(w if needs_w else None for w in ws)]))
    for i, v in enumerate(v for row in out for v in row):
        v.set_grad_fn(node, i)
