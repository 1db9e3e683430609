"""ex16 build_value: build your own engine, stage 1: values that record their graph.

The build track
---------------
From ex16 to ex22 you write a small autograd engine yourself, one behaviour of PyTorch per
stage, and the grader runs PyTorch's programs on it.  Each stage is one file holding the whole
engine so far: start each stage by pasting your bodies from the previous stage into the stubs
marked with its id, then write this stage's new parts.  The file's sections follow micrograph's
core, in the same order (grad mode, nodes, ops, values, backward), each from the stage that
first needs it: this one has nodes, ops and values.

The idea
--------
A ``Value`` holds one number.  When an operation has an input that requires grad, its
result records how it was made: ``y.grad_fn`` is a node named as PyTorch names it
(``AddBackward0`` for ``+``, ``MulBackward0`` for ``*``), whose ``next_functions`` is a tuple
of one ``(node, 0)`` tuple per input: the input's own ``grad_fn``, or for a leaf that requires
grad its ``AccumulateGrad`` node (PyTorch names it ``torch::autograd::AccumulateGrad``), or
``(None, 0)`` for an input that requires no grad (a Python number too).  Every graph built from a leaf
reaches the same ``AccumulateGrad`` object: make it once and keep it on the leaf for the leaf's
whole life, also while no graph uses it, since ex22 puts the leaf's hooks on it (a node made
again would have none).  PyTorch holds its node only while a graph uses it, and makes a new one
once every graph that used it is gone, but keeps a leaf's hooks with the leaf; while a graph
is alive the two agree.  A leaf (叶子节点) is a value no recorded operation made: ``is_leaf`` is
True, ``grad_fn`` is None.  ``requires_grad`` propagates: a result requires grad when an input
does.

    w = Value(1.0, requires_grad=True)
    b = w + 1                  # b.grad_fn.name() == "AddBackward0", b.is_leaf is False
    b.grad_fn.next_functions   # ((<AccumulateGrad>, 0), (None, 0))
    c = Value(2.0) * 3         # no input requires grad: c is a leaf, grad_fn None
    d = 3 * w                  # Python runs w.__rmul__(3): w's entry first, then (None, 0)

What to write
-------------
``is_leaf``, ``__add__``, ``__mul__`` (which also saves, for ex17's backward, what its node
needs and nothing more: ``"other"`` when self requires grad, ``"self"`` when other does, each
the operand itself, the Value, never its number; PyTorch shows them as ``grad_fn._saved_other``
and ``_saved_self`` (``y.grad_fn._saved_other is b`` for ``y = a * b``), None when not saved,
and the grader reads your node's ``saved``), ``recording``, ``gradient_edge`` and ``record``.
Keep the given ``__radd__ = __add__`` and ``__rmul__ = __mul__``: with a number on the left,
PyTorch, as they do, puts the Value's entry first and saves what it saves for ``w * 3``.
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


# ---------------------------------------------------------------- ops (micrograph/ops.py)


class AddBackward0(Node):
    """The node of ``a + b``: saves nothing."""


class MulBackward0(Node):
    """The node of ``a * b``: saves ``other`` (b) if a needs a gradient, ``self`` (a) if b does."""


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
        return self.grad_fn is None

    def __add__(self, other: Value | float) -> Value:
        """``self + other``, recorded as an AddBackward0 node when an input requires grad."""
        other = as_value(other)
        return record(AddBackward0, self.item() + other.item(), self, other)

    def __mul__(self, other: Value | float) -> Value:
        """``self * other``, recorded as a MulBackward0 node that saves what backward needs."""
        other = as_value(other)
        out = record(MulBackward0, self.item() * other.item(), self, other)
        if out.grad_fn is not None:
            if self.requires_grad:
                out.grad_fn.save("other", other)
            if other.requires_grad:
                out.grad_fn.save("self", self)
        return out

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
    return any(v.requires_grad for v in inputs)


def gradient_edge(v: Value) -> tuple[Node | None, int]:
    """Where a gradient for ``v`` goes: (its grad_fn, 0); a leaf that requires grad: (its one
    AccumulateGrad, 0), made once and kept on the leaf for its whole life (ex22 puts the leaf's
    hooks on it); a value that requires no grad: (None, 0)."""
    if v.grad_fn is not None:
        return v.grad_fn, 0
    if not v.requires_grad:
        return None, 0
    if v._accumulator is None:
        v._accumulator = AccumulateGrad(v)
    return v._accumulator, 0


def record(op: type[Node], number: float, *inputs: Value) -> Value:
    """The result of an operation: a new Value holding ``number``; when recording, it requires
    grad and its grad_fn is a new ``op`` node with one edge per input."""
    out = Value(number)
    if recording(*inputs):
        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))
        out.requires_grad = True
    return out
