"""ex19 build_accumulation: build your own engine, stage 4: gradients accumulate.

The idea
--------
Each backward *adds* into ``.grad``: the first one makes a new Value, which requires no grad
(PyTorch's ``.grad`` holds a number, with no graph); a later one adds its gradient to the
number ``.grad`` holds, a leaf's and a retained non-leaf's alike.  Whether the sum goes into the
Value already there (PyTorch adds into a leaf's in place) or into a new Value (as PyTorch gives a
retained non-leaf) is yours to choose: which object ``.grad`` is, the course leaves out.
Two backward calls on two graphs built from the same leaf give the sum of both gradients.  A
training loop therefore resets gradients between steps: ``w.grad.zero_()`` sets the number to
0 in place, or ``w.grad = None`` drops it, and the next backward starts again.

What to write
-------------
Paste your ex18 bodies first.  Then ``store_grad`` again (accumulating) and ``zero_``, which
writes the float 0.0 as PyTorch's does (``w.grad.item()`` is then ``0.0``: not the int 0, nor -0.0).
"""

from __future__ import annotations

import heapq
import itertools
import warnings
from typing import Any, Callable

NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
RETAIN_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"

sequence = itertools.count()  # creation order of nodes: backward runs the newest ready node first


# ---------------------------------------------------------------- nodes (micrograph/node.py)


class Node:
    """A backward function, torch's ``grad_fn``: one per recorded operation."""

    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...]) -> None:
        self.next_functions = next_functions  # one (node, 0) per input; (None, 0) for a constant
        self.sequence_nr = next(sequence)
        self.saved: dict[str, Value] = {}  # what apply needs, by torch's name ("self", "other")
        self.retained: Value | None = None  # the output Value, once it calls retain_grad()

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
        # TODO: your ex17 answer
        raise NotImplementedError("ex17: AccumulateGrad.apply")


# ---------------------------------------------------------------- ops (micrograph/ops.py)


class AddBackward0(Node):
    """The node of ``a + b``: saves nothing."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a + b)/da = d(a + b)/db = 1."""
        # TODO: your ex17 answer
        raise NotImplementedError("ex17: AddBackward0.apply")


class MulBackward0(Node):
    """The node of ``a * b``: saves ``other`` (b) if a needs a gradient, ``self`` (a) if b does."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a * b)/da = b, d(a * b)/db = a (0 for an input that needs no gradient)."""
        # TODO: your ex17 answer
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
        self.retains_grad = False

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
        """The gradient backward wrote; reading it on a non-leaf that does not retain it warns."""
        # TODO: your ex18 answer
        raise NotImplementedError("ex18: Value.grad")

    def _set_grad(self, value: Value | None) -> None:
        self._grad = value

    grad = grad.setter(_set_grad)

    def retain_grad(self) -> None:
        """Ask backward to keep this non-leaf's gradient in .grad (a leaf keeps it anyway); a
        value that requires no grad has no gradient to keep: RuntimeError(RETAIN_NO_GRAD)."""
        # TODO: your ex18 answer
        raise NotImplementedError("ex18: Value.retain_grad")

    def backward(self, retain_graph: bool | None = None) -> None:
        """Backpropagate from this value, seeded with 1."""
        if not self.requires_grad:
            raise RuntimeError(NO_GRAD_FN)
        backward(self, retain_graph=bool(retain_graph))

    def zero_(self) -> Value:
        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""
        # TODO: change the number, return self
        raise NotImplementedError("ex19: Value.zero_")

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
    # TODO: your ex17 answer, then:
    # TODO: accumulate: a new Value the first time, else add the gradient to the number .grad holds
    raise NotImplementedError("ex19: store_grad")


def dependencies(root: Node) -> dict[Node, int]:
    """How many edges reach each node from ``root`` (a node reached by two paths counts 2)."""
    # TODO: your ex17 answer
    raise NotImplementedError("ex17: dependencies")


def backward(root: Value, retain_graph: bool = False) -> None:
    """Run the graph behind ``root`` backwards: a node runs once every gradient for it arrived,
    the newest first; a gradient reaching a node by several paths is summed."""
    # TODO: your ex18 answer
    raise NotImplementedError("ex18: backward")
