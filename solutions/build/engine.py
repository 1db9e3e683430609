"""STATEMENT"""

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
)  #+5
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)  #+3
RETAIN_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"  #+3
LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."  #+6
MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.DoubleTensor []] is at version {version}; expected version {expected} instead. "
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)  #+6
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"
HOOK_ON_CONSTANT = "cannot register a hook on a tensor that doesn't require gradient"  #+7

sequence = itertools.count()  # creation order of nodes: backward runs the newest ready node first


# ---------------------------------------------------------------- grad mode (micrograph/grad_mode.py)  #+7


class GradMode:  #+7
    """Whether operations are recorded; ``no_grad`` switches it off inside a ``with`` block."""

    enabled = True


class no_grad:  #+7
    """``with no_grad(): ...``: operations inside record nothing, as ``torch.no_grad``."""

    def __enter__(self) -> None:  #@7
        """Remember whether recording was on, then switch it off."""
        # TODO: keep GradMode.enabled, then set it to False
        self.previous = GradMode.enabled
        GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:  #@7
        """Put recording back as it was before the block, even when the block raised (returning
        None lets its error go on)."""
        # TODO: put back what __enter__ kept
        GradMode.enabled = self.previous


# ---------------------------------------------------------------- nodes (micrograph/node.py)


class Node:
    """A backward function, torch's ``grad_fn``: one per recorded operation."""

    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...]) -> None:
        self.next_functions = next_functions  # one (node, 0) per input; (None, 0) for a constant
        self.sequence_nr = next(sequence)
        self.saved: dict[str, Value] = {}  # what apply needs, by torch's name ("self", "other")
        self.saved_versions: dict[str, int] = {}  # each saved value's version when saved  #+6
        self.released = False  # True once backward freed the saved values  #+5
        self.retained: Value | None = None  # the output Value, once it calls retain_grad()  #+3
        self.pre_hooks: dict[int, Callable[[Value], Value | None]] = {}  # its output's tensor hooks, by handle id  #+7

    def name(self) -> str:
        return type(self).__name__

    def save(self, name: str, value: Value) -> None:
        """Keep ``value`` for backward."""
        self.saved[name] = value
        self.saved_versions[name] = value._version  #+6

    def unpack(self, name: str) -> Value:  #-5
        """A saved value, for apply."""
        return self.saved[name]

    def unpack(self, name: str) -> Value:  #@5
        """A saved value, for apply; RuntimeError(SECOND_BACKWARD) once released."""
        # TODO: refuse once released, else return the saved value  #=5
        # TODO: also refuse a value changed in place since it was saved (MODIFIED)  #=6
        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
        value = self.saved[name]
        if value._version != self.saved_versions[name]:  #+6
            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))  #+6
        return value

    def release(self) -> None:  #@5
        """Free the saved values (keeping their names): what backward does after running this node."""
        # TODO: forget every saved value (keep the names: apply asks which were saved)
        self.saved = dict.fromkeys(self.saved)
        self.released = True


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: writes the gradient into the leaf's ``.grad``."""

    def __init__(self, variable: Value) -> None:
        super().__init__(())
        self.variable = variable
        self.sequence_nr = float("inf")  # torch runs a ready AccumulateGrad before any other node

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad: float) -> tuple[float, ...]:  #@2
        """Write ``grad`` into the leaf's .grad; send nothing further."""
        # TODO: store_grad into the leaf, return no gradients
        store_grad(self.variable, grad)
        return ()


# ---------------------------------------------------------------- ops (micrograph/ops.py)


class AddBackward0(Node):
    """The node of ``a + b``: saves nothing."""

    def apply(self, grad: float) -> tuple[float, ...]:  #@2
        """d(a + b)/da = d(a + b)/db = 1."""
        # TODO: the gradient for a and for b
        return grad, grad


class ZeroBackward0(Node):  #+6
    """The node of ``v.zero_()`` on a value that requires grad: the old value no longer matters."""

    def apply(self, grad: float) -> tuple[float, ...]:
        """d(0)/dv = 0: the old history gets a zero gradient."""
        return (0.0,)


class MulBackward0(Node):
    """The node of ``a * b``: saves ``other`` (b) if a needs a gradient, ``self`` (a) if b does."""

    def apply(self, grad: float) -> tuple[float, ...]:  #@2
        """d(a * b)/da = b, d(a * b)/db = a (0 for an input that needs no gradient)."""
        # TODO: multiply grad by the other operand, read with self.unpack (0.0 where not saved)
        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,
                grad * self.unpack("self").item() if "self" in self.saved else 0.0)


# ---------------------------------------------------------------- values (micrograph/value.py)


class RemovableHandle:  #+7
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
        self.retains_grad = False  #+3

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
    def is_leaf(self) -> bool:  #@1
        """True for a value no recorded operation made: grad_fn is None."""
        # TODO: one line
        return self.grad_fn is None

    def __add__(self, other: Value | float) -> Value:  #@1
        """``self + other``, recorded as an AddBackward0 node when an input requires grad."""
        # TODO: the number, then record(AddBackward0, ...)
        other = as_value(other)
        return record(AddBackward0, self.item() + other.item(), self, other)

    def __mul__(self, other: Value | float) -> Value:  #@1
        """``self * other``, recorded as a MulBackward0 node that saves what backward needs."""
        # TODO: record(MulBackward0, ...), then save "other" if self requires grad, "self" if other does
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
    def grad(self) -> Value | None:  #-3
        return self._grad

    @property
    def grad(self) -> Value | None:  #@3
        """The gradient backward wrote; reading it on a non-leaf that does not retain it warns."""
        # TODO: warn (UserWarning, NON_LEAF_GRAD) for a non-leaf that does not retain its grad
        if not self.is_leaf and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    def _set_grad(self, value: Value | None) -> None:
        self._grad = value

    grad = grad.setter(_set_grad)

    def retain_grad(self) -> None:  #@3
        """Ask backward to keep this non-leaf's gradient in .grad (a leaf keeps it anyway); a
        value that requires no grad has no gradient to keep: RuntimeError(RETAIN_NO_GRAD)."""
        # TODO: refuse a value that requires no grad
        # TODO: for a non-leaf, tell its grad_fn which Value to write
        if not self.requires_grad:
            raise RuntimeError(RETAIN_NO_GRAD)
        if self.grad_fn is not None:
            self.grad_fn.retained = self
            self.retains_grad = True

    def backward(self, retain_graph: bool | None = None) -> None:
        """Backpropagate from this value, seeded with 1."""
        if not self.requires_grad:
            raise RuntimeError(NO_GRAD_FN)
        backward(self, retain_graph=bool(retain_graph))

    def zero_(self) -> Value:  #@4
        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""
        # TODO: change the number, return self
        # TODO: an in-place change: check leaves, bump the version, rebase onto a ZeroBackward0 when recording  #=6
        check_in_place(self)  #+6
        edges = (gradient_edge(self),)  #+6
        self._box[0] = 0.0
        self._versions[0] += 1  #+6
        if recording(self):  #+6
            rebase(self, ZeroBackward0(edges))  #+6
        return self

    @property
    def data(self) -> Value:  #-6
        return Value(self._box[0])

    @property
    def data(self) -> Value:  #@6
        """A Value sharing this number, with a version counter of its own, requiring no grad."""
        # TODO: share the number (_box), not the version counter
        alias = Value(0.0)
        alias._box = self._box
        return alias

    def detach(self) -> Value:  #@6
        """A Value sharing this number and its version counter, requiring no grad, with no graph."""
        # TODO: share the number and the version counter
        alias = Value(0.0)
        alias._box, alias._versions = self._box, self._versions
        return alias

    def add_(self, other: Value | float) -> Value:  #@6
        """``self += other`` in place: the leaf error, a new version, grad_fn rebased to AddBackward0."""
        # TODO: check_in_place, change the number, bump the version, then rebase when recording
        other = as_value(other)
        check_in_place(self)
        edges = (gradient_edge(self), gradient_edge(other))
        self._box[0] += other.item()
        self._versions[0] += 1
        if recording(self, other):
            rebase(self, AddBackward0(edges))
        return self

    __iadd__ = add_  #+6

    def register_hook(self, hook: Callable[[Value], Value | None]) -> RemovableHandle:  #@7
        """Call ``hook(grad)`` when backward computes this value's gradient; a Value returned replaces it."""
        # TODO: refuse a value that does not require grad, then add hook under a new handle's id
        if not self.requires_grad:
            raise RuntimeError(HOOK_ON_CONSTANT)
        hooks = gradient_edge(self)[0].pre_hooks
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle


def as_value(x: Value | float) -> Value:
    """A Python number as a Value that requires no grad."""
    return x if isinstance(x, Value) else Value(x)


def recording(*inputs: Value) -> bool:  #@1
    """Whether an operation on ``inputs`` is recorded: some input requires grad."""
    # TODO: one line
    # TODO: and grad mode is on  #=7
    return GradMode.enabled and any(v.requires_grad for v in inputs)  #+7
    return any(v.requires_grad for v in inputs)  #-7


def gradient_edge(v: Value) -> tuple[Node | None, int]:  #@1
    """Where a gradient for ``v`` goes: (its grad_fn, 0); a leaf that requires grad: (its one
    AccumulateGrad, 0), made once and kept on the leaf for its whole life (ex22 puts the leaf's
    hooks on it); a value that requires no grad: (None, 0)."""
    # TODO: three cases
    if v.grad_fn is not None:
        return v.grad_fn, 0
    if not v.requires_grad:
        return None, 0
    if v._accumulator is None:
        v._accumulator = AccumulateGrad(v)
    return v._accumulator, 0


def record(op: type[Node], number: float, *inputs: Value) -> Value:  #@1
    """The result of an operation: a new Value holding ``number``; when recording, it requires
    grad and its grad_fn is a new ``op`` node with one edge per input."""
    # TODO: a new Value; when recording, its grad_fn and requires_grad
    out = Value(number)
    if recording(*inputs):
        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))
        out.requires_grad = True
    return out


def rebase(v: Value, node: Node) -> None:  #@6
    """Record an in-place op on ``v``: ``node`` (whose edges are v's old history and the other
    operand) becomes its grad_fn and v requires grad; a gradient v retains is its new value's, so
    ``node`` writes it from now on, not the old grad_fn."""
    # TODO: move a retained gradient to node, then make node v's grad_fn
    if v.retains_grad:
        v.grad_fn.retained, node.retained = None, v
    v.grad_fn = node
    v.requires_grad = True


def check_in_place(v: Value) -> None:  #@6
    """RuntimeError(LEAF_IN_PLACE) for a leaf that requires grad, while recording."""
    # TODO: one test
    # TODO: only while grad mode is on (no_grad allows the SGD step)  #=7
    if v.is_leaf and v.requires_grad and GradMode.enabled:  #+7
        raise RuntimeError(LEAF_IN_PLACE)  #+7
    if v.is_leaf and v.requires_grad:  #-7
        raise RuntimeError(LEAF_IN_PLACE)  #-7


# ---------------------------------------------------------------- backward (micrograph/engine.py, hooks.py)  #+2


def store_grad(v: Value, grad: float) -> None:  #@2
    """Write ``grad`` into ``v.grad`` as a Value (PyTorch's .grad is a tensor, like the leaf)."""
    # TODO: one line  #=2
    # TODO: accumulate: a new Value the first time, else add the gradient to the number .grad holds  #=4
    if v._grad is None:  #+4
        v._grad = Value(grad)  #+4
    elif v.is_leaf:  #+4
        v._grad._box[0] += grad  #+4
    else:  #+4
        v._grad = Value(v._grad.item() + grad)  #+4
    v._grad = Value(grad)  #-4


def run_hooks(hooks: dict[int, Callable[[Value], Value | None]], grad: float) -> float:  #@7
    """Call each hook with the gradient (as a Value); a Value a hook returns replaces it."""
    # TODO: in the order registered; None keeps the gradient
    for hook in list(hooks.values()):
        result = hook(Value(grad))
        if result is not None:
            grad = result.item()
    return grad


def dependencies(root: Node) -> dict[Node, int]:  #@2
    """How many edges reach each node from ``root`` (a node reached by two paths counts 2)."""
    # TODO: walk every node once (a stack, not recursion), counting edges into each
    counts: dict[Node, int] = {root: 0}
    stack = [root]
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child not in counts:
                counts[child] = 0
                stack.append(child)
            counts[child] += 1
    return counts


def backward(root: Value, retain_graph: bool = False) -> None:  #@2
    """Run the graph behind ``root`` backwards: a node runs once every gradient for it arrived,
    the newest first; a gradient reaching a node by several paths is summed."""
    # TODO: dependencies, then a heap of ready nodes by -sequence_nr, buffers of summed gradients
    # TODO: AccumulateGrads tie (sequence_nr inf): a counter after it in each entry keeps the heap from comparing nodes
    # TODO: before apply: write a retained non-leaf's gradient (store_grad)  #=3
    # TODO: after apply: release the node's saved values unless retain_graph  #=5
    # TODO: before apply: run node.pre_hooks (register_hook puts a leaf's on its AccumulateGrad)  #=7
    first, _ = gradient_edge(root)
    waiting = dependencies(first)
    buffers = {first: 1.0}
    ready = [(-first.sequence_nr, 0, first)]
    pushed = itertools.count(1)
    while ready:
        node = heapq.heappop(ready)[2]
        grad = buffers.pop(node)
        grad = run_hooks(node.pre_hooks, grad)  #+7
        if node.retained is not None:  #+3
            store_grad(node.retained, grad)  #+3
        grads = node.apply(grad)
        if not retain_graph:  #+5
            node.release()  #+5
        for (child, _), g in zip(node.next_functions, grads):
            if child is None:
                continue
            buffers[child] = buffers.get(child, 0.0) + g
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))
