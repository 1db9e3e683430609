"""ex22 build_no_grad_hooks: build your own engine, stage 7: no_grad, detach() and hooks.

The idea
--------
Inside ``with no_grad():`` nothing is recorded: results are leaves that require no grad, and
a leaf that requires grad may change in place (the SGD step ``w.add_(-lr * g)``); ``recording``
is True only while grad mode is on *and* some input requires grad.  After the block,
recording is as it was before it, even when the block raised: ``__exit__`` puts it back and
lets the error go on (it returns nothing).  ``detach()`` cuts the graph: a result computed
from a detached value has no edge back to the original.  A tensor hook,
``v.register_hook(fn)``, is called with v's gradient (a Value that requires no grad) when
backward computes it, before a leaf's ``.grad`` is written and before a retained gradient is
kept; if ``fn`` returns a Value, that Value replaces the gradient from then on.  A hook must
not change its argument in place (PyTorch's documentation says so too): it returns a new Value
instead.  A hook may take itself out (``handle.remove()`` inside it) while backward runs it.
``register_hook`` on a value that requires no grad raises ``RuntimeError(HOOK_ON_CONSTANT)``.
A node keeps its hooks in a dict, by the id of the handle ``register_hook`` returns (in the
order registered), so ``handle.remove()`` takes out the hook that handle registered, as in
PyTorch, even when the same function was registered twice.

What to write
-------------
Paste your ex21 bodies first.  Then ``no_grad``'s ``__enter__`` and ``__exit__``,
``recording`` and ``check_in_place`` again (grad mode), ``register_hook``, ``run_hooks`` and
the step of ``backward`` that runs them.
"""
# names: ran at most once during (c * d).backward(), Run each hook a value still has once

from __future__ import annotations

import heapq
import itertools
import warnings
from typing import Any, Callable

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
RETAIN_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."
MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.DoubleTensor []] is at version {version}; expected version {expected} instead. "
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"
HOOK_ON_CONSTANT = "cannot register a hook on a tensor that doesn't require gradient"

sequence = itertools.count()  # creation order of nodes: backward runs the newest ready node first


# ---------------------------------------------------------------- grad mode (micrograph/grad_mode.py)


class GradMode:
    """Whether operations are recorded; ``no_grad`` switches it off inside a ``with`` block."""

    enabled = True


class no_grad:
    """``with no_grad(): ...``: operations inside record nothing, as ``torch.no_grad``."""

    def __enter__(self) -> None:
        """Remember whether recording was on, then switch it off."""
        self.prev = GradMode.enabled
        GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:
        """Put recording back as it was before the block, even when the block raised (returning
        None lets its error go on)."""
        GradMode.enabled = self.prev


# ---------------------------------------------------------------- nodes (micrograph/node.py)


class Node:
    """A backward function, torch's ``grad_fn``: one per recorded operation."""

    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...]) -> None:
        self.next_functions = next_functions  # one (node, 0) per input; (None, 0) for a constant
        self.sequence_nr = next(sequence)
        self.saved: dict[str, Value] = {}  # what apply needs, by torch's name ("self", "other")
        self.saved_versions: dict[str, int] = {}  # each saved value's version when saved
        self.released = False  # True once backward freed the saved values
        self.retained: Value | None = None  # the output Value, once it calls retain_grad()
        self.pre_hooks: dict[int, Callable[[Value], Value | None]] = {}  # its output's tensor hooks, by handle id

    def name(self) -> str:
        return type(self).__name__

    def save(self, name: str, value: Value) -> None:
        """Keep ``value`` for backward."""
        self.saved[name] = value
        self.saved_versions[name] = value._version

    def unpack(self, name: str) -> Value:
        """A saved value, for apply; RuntimeError(SECOND_BACKWARD) once released."""
        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
        v = self.saved[name]
        if v._version != self.saved_versions[name]:
            raise RuntimeError(MODIFIED.format(version=v._version, expected=self.saved_versions[name]))
        return v

    def release(self) -> None:
        """Free the saved values (keeping their names): what backward does after running this node."""
        self.saved = {k: None for k in self.saved}
        self.released = True


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
        store_grad(self.variable, grad)
        return ()


# ---------------------------------------------------------------- ops (micrograph/ops.py)


class AddBackward0(Node):
    """The node of ``a + b``: saves nothing."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a + b)/da = d(a + b)/db = 1."""
        return (grad, grad)


class ZeroBackward0(Node):
    """The node of ``v.zero_()`` on a value that requires grad: the old value no longer matters."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(0)/dv = 0: the old history gets a zero gradient."""
        return (0.0,)


class MulBackward0(Node):
    """The node of ``a * b``: saves ``other`` (b) if a needs a gradient, ``self`` (a) if b does."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(a * b)/da = b, d(a * b)/db = a (0 for an input that needs no gradient)."""
        a = self.unpack("self").item() if "self" in self.saved else 0.0
        b = self.unpack("other").item() if "other" in self.saved else 0.0
        return (grad * b, grad * a)


# ---------------------------------------------------------------- values (micrograph/value.py)


class RemovableHandle:
    """What ``register_hook`` returns: its ``id`` is the key of the hook it registered, so
    ``remove()`` takes out that hook, as torch does (a function registered twice has two)."""

    ids = itertools.count()

    def __init__(self, hooks: dict[int, Callable[[Value], Value | None]]) -> None:
        self.hooks, self.id = hooks, next(RemovableHandle.ids)

    def remove(self) -> None:
        self.hooks.pop(self.id, None)


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
        """The gradient backward wrote; reading it on a non-leaf that does not retain it warns."""
        if self.grad_fn is not None and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    def _set_grad(self, value: Value | None) -> None:
        self._grad = value

    grad = grad.setter(_set_grad)

    def retain_grad(self) -> None:
        """Ask backward to keep this non-leaf's gradient in .grad (a leaf keeps it anyway); a
        value that requires no grad has no gradient to keep: RuntimeError(RETAIN_NO_GRAD)."""
        if not self.requires_grad:
            raise RuntimeError(RETAIN_NO_GRAD)
        if self.grad_fn is None:
            return
        self.grad_fn.retained = self
        self.retains_grad = True

    def backward(self, retain_graph: bool | None = None) -> None:
        """Backpropagate from this value, seeded with 1."""
        if not self.requires_grad:
            raise RuntimeError(NO_GRAD_FN)
        backward(self, retain_graph=bool(retain_graph))

    def zero_(self) -> Value:
        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""
        check_in_place(self)
        edge = gradient_edge(self)
        self._box[0] = 0.0
        self._versions[0] += 1
        if recording(self):
            rebase(self, ZeroBackward0((edge,)))
        return self

    @property
    def data(self) -> Value:
        """A Value sharing this number, with a version counter of its own, requiring no grad."""
        v = Value(0.0)
        v._box = self._box
        return v

    def detach(self) -> Value:
        """A Value sharing this number and its version counter, requiring no grad, with no graph."""
        v = Value(0.0)
        v._box = self._box
        v._versions = self._versions
        return v

    def add_(self, other: Value | float) -> Value:
        """``self += other`` in place: the leaf error, a new version, grad_fn rebased to AddBackward0."""
        other = as_value(other)
        check_in_place(self)
        edge = gradient_edge(self)
        self._box[0] += other.item()
        self._versions[0] += 1
        if recording(self, other):
            rebase(self, AddBackward0((edge, gradient_edge(other))))
        return self

    __iadd__ = add_

    def register_hook(self, hook: Callable[[Value], Value | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when backward computes this value's gradient; a Value returned replaces it."""
        if not self.requires_grad:
            raise RuntimeError(HOOK_ON_CONSTANT)
        node = gradient_edge(self)[0]
        handle = RemovableHandle(node.pre_hooks)
        node.pre_hooks[handle.id] = hook
        return handle


def as_value(x: Value | float) -> Value:
    """A Python number as a Value that requires no grad."""
    return x if isinstance(x, Value) else Value(x)


def recording(*inputs: Value) -> bool:
    """Whether an operation on ``inputs`` is recorded: some input requires grad."""
    return GradMode.enabled and any(v.requires_grad for v in inputs)


def gradient_edge(v: Value) -> tuple[Node | None, int]:
    """Where a gradient for ``v`` goes: (its grad_fn, 0); a leaf that requires grad: (its one
    AccumulateGrad, 0), made once and kept on the leaf for its whole life (ex22 puts the leaf's
    hooks on it); a value that requires no grad: (None, 0)."""
    if v.grad_fn is not None:
        return (v.grad_fn, 0)
    if v.requires_grad:
        if v._accumulator is None:
            v._accumulator = AccumulateGrad(v)
        return (v._accumulator, 0)
    return (None, 0)


def record(op: type[Node], number: float, *inputs: Value) -> Value:
    """The result of an operation: a new Value holding ``number``; when recording, it requires
    grad and its grad_fn is a new ``op`` node with one edge per input."""
    out = Value(number)
    if recording(*inputs):
        out.requires_grad = True
        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))
    return out


def rebase(v: Value, node: Node) -> None:
    """Record an in-place op on ``v``: ``node`` (whose edges are v's old history and the other
    operand) becomes its grad_fn and v requires grad; a gradient v retains is its new value's, so
    ``node`` writes it from now on, not the old grad_fn."""
    old = v.grad_fn
    if old is not None and old.retained is v:
        node.retained = v
        old.retained = None
    v.grad_fn = node
    v.requires_grad = True


def check_in_place(v: Value) -> None:
    """RuntimeError(LEAF_IN_PLACE) for a leaf that requires grad, while recording."""
    if GradMode.enabled and v.grad_fn is None and v.requires_grad:
        raise RuntimeError(LEAF_IN_PLACE)


# ---------------------------------------------------------------- backward (micrograph/engine.py, hooks.py)


def store_grad(v: Value, grad: float) -> None:
    """Write ``grad`` into ``v.grad`` as a Value (PyTorch's .grad is a tensor, like the leaf)."""
    if v._grad is None:
        v._grad = Value(grad)
    elif v.grad_fn is None:
        v._grad._box[0] += grad
    else:
        v._grad = Value(v._grad.item() + grad)


def run_hooks(hooks: dict[int, Callable[[Value], Value | None]], grad: float) -> float:
    """Call each hook with the gradient (as a Value); a Value a hook returns replaces it."""
    for hook in list(hooks.values()):
        out = hook(Value(grad))
        if out is not None:
            grad = out.item()
    return grad


def dependencies(root: Node) -> dict[Node, int]:
    """How many edges reach each node from ``root`` (a node reached by two paths counts 2)."""
    deps = {root: 0}
    stack, seen = [root], {root}
    while stack:
        n = stack.pop()
        for nxt, _ in n.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def backward(root: Value, retain_graph: bool = False) -> None:
    """Run the graph behind ``root`` backwards: a node runs once every gradient for it arrived,
    the newest first; a gradient reaching a node by several paths is summed."""
    start, _ = gradient_edge(root)
    deps = dependencies(start)
    buffers = {start: 1.0}
    tie = itertools.count()
    heap = [(-start.sequence_nr, next(tie), start)]
    while heap:
        _, _, n = heapq.heappop(heap)
        g = buffers.pop(n)
        if n.retained is not None:
            store_grad(n.retained, g)
        grads = n.apply(g)
        if not retain_graph:
            n.release()

        for (nxt, _), gi in zip(n.next_functions, grads):
            if nxt is None:
                continue
            if nxt.pre_hooks:
                gi = run_hooks(nxt.pre_hooks, gi)
            buffers[nxt] = gi if nxt not in buffers else buffers[nxt] + gi
            deps[nxt] -= 1
            if deps[nxt] == 0:
                heapq.heappush(heap, (-nxt.sequence_nr, next(tie), nxt))
