"""ex17 build_backward: build your own engine, stage 2: backward, in PyTorch's order.

The idea
--------
``y.backward()`` seeds y's node with 1 and runs the graph backwards.  Each node's ``apply``
turns the gradient of its output into one gradient per input (the chain rule); a leaf's
``AccumulateGrad`` writes what it receives into the leaf's ``.grad``, as a Value (PyTorch's
``.grad`` is a tensor like the leaf).  A node may run only once *every* gradient for it has
arrived, summed: y = (x + w) * (w + 1) reaches w by two paths, and w's AccumulateGrad must
run once, with the sum.  So count first how many edges reach each node (``dependencies``),
then run ready nodes, the newest node first (the highest ``sequence_nr``; AccumulateGrad's is
infinite), as PyTorch's engine does, each by calling ``node.apply(grad)`` (the grader watches
the order through it).  The order shows in the gradients: a node's gradients
are summed in the order they arrive, and a floating-point sum depends on its order
(``1e16 + 1 - 1e16`` is 0.0, ``1e16 - 1e16 + 1`` is 1.0), so running the oldest node first, or
the first pushed, can give another gradient than PyTorch's.  A recursive walk that follows
every path runs a shared node once per path.  Backward may start at a leaf: ``w.backward()``
writes 1 into ``w.grad`` (start from the root's ``gradient_edge``, not its ``grad_fn``).  For
the documents' graph at w = 1, x = 2: w.grad is 5 and x.grad is 2.

What to write
-------------
Paste your ex16 bodies first.  Then ``AccumulateGrad.apply``, ``AddBackward0.apply``,
``MulBackward0.apply``, ``store_grad``, ``dependencies`` and ``backward``.  ``retain_graph``
is for ex20: ignore it here.
"""

from __future__ import annotations

import heapq
import itertools
import warnings
from typing import Any, Callable

NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"

sequence = itertools.count()  # creation order of nodes: backward runs the newest ready node first


# ---------------------------------------------------------------- nodes (micrograph/node.py)


class Node:
    """A backward function, torch's ``grad_fn``: one per recorded operation."""

    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...]) -> None:
        self.next_functions = next_functions  # one (node, 0) per input; (None, 0) for a constant
        self.sequence_nr = next(sequence)
        self.saved: dict[str, Value] = {}  # what apply needs, by torch's name ("self", "other")

    def name(self) -> str:
        return type(self).__name__

    def save(self, name: str, value: Value) -> None:
        """Keep ``value`` for backward."""
        self.saved[name] = value

    def unpack(self, name: str) -> Value:
        """A saved value, for apply."""
        return self.saved[name]


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: writes the gradient into the leaf's ``.grad``."""

    def __init__(self, variable: Value) -> None:
        super().__init__(())
        self.variable = variable
        self.sequence_nr = float("inf")  # torch runs a ready AccumulateGrad before any other node

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad: float) -> tuple[float, ...]:
        """Write ``grad`` into the leaf's .grad; send nothing further."""
        # TODO: store_grad into the leaf, return no gradients
        raise NotImplementedError("ex17: AccumulateGrad.apply")


# ---------------------------------------------------------------- ops (micrograph/ops.py)


class AddBackward0(Node):
    """The node of ``a + b``: saves nothing."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a + b)/da = d(a + b)/db = 1."""
        # TODO: the gradient for a and for b
        raise NotImplementedError("ex17: AddBackward0.apply")


class MulBackward0(Node):
    """The node of ``a * b``: saves ``other`` (b) if a needs a gradient, ``self`` (a) if b does."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a * b)/da = b, d(a * b)/db = a (0 for an input that needs no gradient)."""
        # TODO: multiply grad by the other operand, read with self.unpack (0.0 where not saved)
        raise NotImplementedError("ex17: MulBackward0.apply")


# ---------------------------------------------------------------- values (micrograph/value.py)


class Value:
    """A one-element tensor: a number, its gradient, and the node that made it."""

    def __init__(self, data: float, requires_grad: bool = False) -> None:
        self._box = [float(data)]  # the number; shared with .data and detach()
        self._versions = [0]  # the version counter; shared with detach() (not with .data)
        self.requires_grad = requires_grad
        self.grad_fn: Node | None = None  # the node that made this value; None for a leaf
        self._grad: Value | None = None
        self._accumulator: AccumulateGrad | None = None  # a leaf's one AccumulateGrad node

    def item(self) -> float:
        return self._box[0]

    def __float__(self) -> float:
        return self._box[0]

    def __repr__(self) -> str:
        return f"Value({self._box[0]:g})"

    @property
    def _version(self) -> int:
        return self._versions[0]

    @property
    def is_leaf(self) -> bool:
        """True for a value no recorded operation made: grad_fn is None."""
        # TODO: your ex16 answer
        raise NotImplementedError("ex16: Value.is_leaf")

    def __add__(self, other: Value | float) -> Value:
        """``self + other``, recorded as an AddBackward0 node when an input requires grad."""
        # TODO: your ex16 answer
        raise NotImplementedError("ex16: Value.__add__")

    def __mul__(self, other: Value | float) -> Value:
        """``self * other``, recorded as a MulBackward0 node that saves what backward needs."""
        # TODO: your ex16 answer
        raise NotImplementedError("ex16: Value.__mul__")

    __radd__ = __add__
    __rmul__ = __mul__

    @property
    def grad(self) -> Value | None:
        return self._grad

    def _set_grad(self, value: Value | None) -> None:
        self._grad = value

    grad = grad.setter(_set_grad)

    def backward(self, retain_graph: bool | None = None) -> None:
        """Backpropagate from this value, seeded with 1."""
        if not self.requires_grad:
            raise RuntimeError(NO_GRAD_FN)
        backward(self, retain_graph=bool(retain_graph))

    @property
    def data(self) -> Value:
        return Value(self._box[0])


def as_value(x: Value | float) -> Value:
    """A Python number as a Value that requires no grad."""
    return x if isinstance(x, Value) else Value(x)


def recording(*inputs: Value) -> bool:
    """Whether an operation on ``inputs`` is recorded: some input requires grad."""
    # TODO: your ex16 answer
    raise NotImplementedError("ex16: recording")


def gradient_edge(v: Value) -> tuple[Node | None, int]:
    """Where a gradient for ``v`` goes: (its grad_fn, 0); a leaf that requires grad: (its one
    AccumulateGrad, 0), made once and kept on the leaf for its whole life (ex22 puts the leaf's
    hooks on it); a value that requires no grad: (None, 0)."""
    # TODO: your ex16 answer
    raise NotImplementedError("ex16: gradient_edge")


def record(op: type[Node], number: float, *inputs: Value) -> Value:
    """The result of an operation: a new Value holding ``number``; when recording, it requires
    grad and its grad_fn is a new ``op`` node with one edge per input."""
    # TODO: your ex16 answer
    raise NotImplementedError("ex16: record")


# ---------------------------------------------------------------- backward (micrograph/engine.py, hooks.py)


def store_grad(v: Value, grad: float) -> None:
    """Write ``grad`` into ``v.grad`` as a Value (PyTorch's .grad is a tensor, like the leaf)."""
    # TODO: one line
    raise NotImplementedError("ex17: store_grad")


def dependencies(root: Node) -> dict[Node, int]:
    """How many edges reach each node from ``root`` (a node reached by two paths counts 2)."""
    # TODO: walk every node once (a stack, not recursion), counting edges into each
    raise NotImplementedError("ex17: dependencies")


def backward(root: Value, retain_graph: bool = False) -> None:
    """Run the graph behind ``root`` backwards: a node runs once every gradient for it arrived,
    the newest first; a gradient reaching a node by several paths is summed."""
    # TODO: dependencies, then a heap of ready nodes by -sequence_nr, buffers of summed gradients
    # TODO: AccumulateGrads tie (sequence_nr inf): a counter after it in each entry keeps the heap from comparing nodes
    raise NotImplementedError("ex17: backward")
