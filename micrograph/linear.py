"""``nn.Linear``'s forward and its one node, ``AddmmBackward0``, as torch makes them.

torch computes a layer's whole output with one ``addmm(bias, input, weight.t())``
and records one node for it.  So does micrograph: the entries of ``net(batch)``
are the outputs of one node with several outputs (``multi_output.py``), entry
``[r][j]`` its output ``r * out_features + j``.  The node saves the input rows
(needed for the weights' gradient) and the weights (needed for the input's), each
only when that gradient is needed, as torch's ``addmm`` saves ``mat1`` and
``mat2``.  Because it is one node, a second backward through a layer fails
before it writes any gradient, even where a graph of scalar products and sums
would already have written a bias's.

Where torch's node differs from this one: torch's edges are three tensors
(``bias``, ``input``, ``weight.t()`` through a ``TBackward0``), here one per
number (the biases, then the input row by row, then the weights row by row, each
requiring grad or None); the entries of torch's output reached by indexing or
iterating it are ``SelectBackward0``/``UnbindBackward0`` views of it (and a 1-D
input adds a ``ViewBackward0``), here they are the node's outputs themselves.
Without a bias the node is ``MmBackward0``.

The sums run in MKL's order (``matmul_order.py``): with cancellation the
numbers are torch's, not those of a left-to-right sum.
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

from micrograph import anomaly, inference, multi_output
from micrograph import functional as F
from micrograph.grad_mode import is_recording
from micrograph.matmul_order import bias_grad, fused, in_order, linear_entry
from micrograph.node import Grad, Node, gradient_edge, numbered
from micrograph.value import Value


class AddmmBackward0(Node):
    """The node of one ``Linear`` call: one output per entry of the result, one edge per number used."""

    def __init__(self, edges: tuple[Node | None, ...], shape: tuple[int, int, int], bias: bool,
                 saved: tuple[Any, ...], versions: tuple[int, ...], result: float) -> None:
        super().__init__(edges, result, saved, versions)
        self.shape = shape  # rows, in_features, out_features
        self.has_bias = bias
        self.saved_is_output = (False,) * len(saved)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        """Every edge's gradient from every output's (zero for an output no gradient reached)."""
        rows, n_in, n_out = self.shape
        saved = self.unpack(create_graph)  # the second-backward and in-place checks, before anything
        xs, ws = saved[:rows * n_in], saved[rows * n_in:]
        g = multi_output.materialized(grad, create_graph, True)
        grads: list[Grad] = []
        edges = iter(self)
        if self.has_bias:  # torch: grad.sum(0)
            grads += [(_sum_values(g[j::n_out]) if create_graph else bias_grad(g[j::n_out], n_out, j))
                      if next(edges) else None for j in range(n_out)]
        for r in range(rows):  # torch: grad @ weight, a rows x in_features result
            grads += [_dot(create_graph, g[r * n_out:(r + 1) * n_out], ws[k::n_in], fused(rows, n_in, r, k))
                      if next(edges) else None for k in range(n_in)]
        for j in range(n_out):  # torch: (input.t() @ grad).t(), an out_features x in_features result
            grads += [_dot(create_graph, xs[k::n_in], g[j::n_out], fused(n_out, n_in, j, k)) if next(edges) else None
                      for k in range(n_in)]
        return tuple(grads)


class MmBackward0(AddmmBackward0):
    """A ``Linear`` without bias: torch's ``matmul`` node."""


def _sum_values(terms: list[Any]) -> Any:
    return terms[0] if len(terms) == 1 else F.sum(terms)


def _dot(create_graph: bool, a: Sequence[Any], b: Sequence[Any], fuse: bool) -> Grad:
    """One entry of a backward matrix product: from numbers in MKL's order (one by one, fused
    inside its big kernel's blocks), or, recorded for create_graph, as a sum of Value products."""
    if create_graph:
        return _sum_values([F.mul(x, y) for x, y in zip(a, b)])
    return in_order(a, b, fuse=fuse)


def forward(rows: Sequence[Sequence[Any]], weight: list[list[Value]], bias: list[Value] | None) -> list[list[Value]]:
    """``addmm(bias, rows, weight.t())``: the entries as Values, the outputs of one node when recorded."""
    n_in, n_out = len(weight[0]), len(weight)
    xs = [x for row in rows for x in row]
    ws = [w for row in weight for w in row]
    for x in xs:
        if not isinstance(x, (Value, numbers.Real)):
            raise TypeError(f"Linear: a row holds numbers or Values, got a {type(x).__name__}: {x!r:.40}")
    x_numbers = [float(x._storage[0] if isinstance(x, Value) else x) for x in xs]
    w_numbers = [w._storage[0] for w in ws]
    shape = (len(rows), n_in, n_out)
    out = [[Value._shared([linear_entry(x_numbers[r * n_in:(r + 1) * n_in], w_numbers[j * n_in:(j + 1) * n_in],
                                        None if bias is None else bias[j]._storage[0], shape, (r, j))], None)
            for j in range(n_out)] for r in range(len(rows))]
    if is_recording():
        _record(xs, ws, bias, out, shape)
    else:
        for row in out:
            for v in row:
                inference.mark(v)
    return out


def _record(xs: list[Any], ws: list[Value], bias: list[Value] | None, out: list[list[Value]],
            shape: tuple[int, int, int]) -> None:
    """The node of one call, when some number used requires grad."""
    inputs: list[Any] = [*(bias or ()), *xs, *ws]
    edges = tuple(gradient_edge(x) if isinstance(x, Value) else None for x in inputs)
    if all(e is None for e in edges):
        return
    n_bias = len(bias or ())
    needs_x = any(e is not None for e in edges[n_bias + len(xs):])  # weights need grad: keep the input
    needs_w = any(e is not None for e in edges[n_bias:n_bias + len(xs)])  # input needs grad: keep the weights
    kept_xs = [(x if isinstance(x, Value) else float(x)) if needs_x else None for x in xs]
    saved = tuple([*kept_xs, *(w if needs_w else None for w in ws)])
    for item in saved:
        if isinstance(item, Value) and item._inference:
            inference.check_save(item)
    versions = tuple(item._version if isinstance(item, Value) else 0 for item in saved)
    op = AddmmBackward0 if bias is not None else MmBackward0
    node = numbered(op(edges, shape, bias is not None, saved, versions, out[0][0]._storage[0]), tuple(inputs))
    multi_output.attach(node, len(out) * len(out[0]), {i: v for i, v in enumerate(v for row in out for v in row)})
    if anomaly.state.enabled:
        anomaly.stamp(node)
