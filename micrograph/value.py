"""``Value``: a one-element tensor that records the operations made on it.

What PyTorch spreads over ``Tensor``, ``TensorImpl`` and ``Variable`` is here in
one small class:

* the number lives in a *storage* (a one-element list), so ``detach()`` and
  ``.data`` can share it: writing through one changes the other;
* a *version counter* (another one-element list) counts in-place changes.
  ``detach()`` shares it, ``.data`` gets a fresh one, as in PyTorch, which is
  why a change through ``.data`` escapes the saved-value check.  It is made
  only when first needed (``None`` reads as version 0): most values are never
  changed in place, and one object fewer per value is less for Python's
  garbage collector to walk;
* ``grad_fn`` is the node that made the value (None for a leaf), ``_grad`` the
  accumulated gradient.

Every op goes through :func:`_record`, which asks the op table (``ops.py``, ``ops_math.py``) for
the forward value and, when grad mode is on and an input requires grad, asks
``node.make_node`` for the op's node with its edges and saved values.  In-place
ops (``inplace.InPlace``, a base class) go through :func:`micrograph.inplace.record`
(PyTorch's leaf check, version bump and ``grad_fn`` rebase); torch's method
names and Python's conversions are inherited from ``tensor_api.TensorAPI``.
"""

from __future__ import annotations

import numbers
import warnings
import weakref
from typing import Any, Callable

from micrograph import anomaly, inference, observe, ops, ops_math
from micrograph.grad_mode import is_recording
from micrograph.handles import RemovableHandle, needs_full_loop
from micrograph.node import AccumulateGrad, Node, OutputSlot, make_node, note_detached_in_place, sequence
from micrograph.inplace import InPlace
from micrograph.tensor_api import TensorAPI, operand, wrapped_number

Number = int | float

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


class Value(InPlace, TensorAPI):
    """A scalar that, like a one-element ``torch.Tensor``, can take part in autograd."""

    # What every value needs, or an op reads, is a slot; what only leaves and retained values
    # need (a gradient, hooks) is a class-level None until set, which puts it in the instance
    # __dict__, made only then, once per leaf (a dict is one more object for the cyclic GC to walk).
    # Slots for ``_grad`` and ``_grad_write`` (measured) made the backward that gives 10,000 leaves
    # their first .grad 13% faster, but every Value 16 B larger: the mlp step's backward 8% slower.
    __slots__ = ("_storage", "_vc", "_requires_grad", "grad_fn", "_accumulator", "__dict__", "__weakref__")

    _storage: list[float]
    _vc: list[int] | None  # None until an in-place change or a sharer needs it
    _requires_grad: bool
    grad_fn: Node | None
    _accumulator: weakref.ref[AccumulateGrad] | None  # a leaf's AccumulateGrad while a graph holds it
    _grad: Value | None = None
    _hooks: list[Callable[[Value], Value | None]] | None = None  # a leaf's; a non-leaf's live on its node
    _detached_at = -1  # when detach_() made this non-leaf a leaf: nodes older than that refuse it
    _grad_write: tuple[Any, ...] | None = None  # who last wrote .grad: see micrograph.observe.grad_write
    _post_accumulate_hooks: list[Callable[[Value], None]] | None = None  # see node_hooks.py
    _output_nr = 0  # which output of its grad_fn, when that node has several (multi_output.py)
    _inference = False  # made inside inference_mode (inference.py): read by every op that saves it

    def __init__(self, data: Any, requires_grad: bool = False) -> None:
        if isinstance(data, Value):
            raise TypeError("Value(data) takes a real number, got a Value: use v.detach() or v.clone()")
        if not isinstance(data, numbers.Real):
            raise TypeError(f"Value(data) takes a real number, got {type(data).__name__}: {data!r:.60}")
        self._storage = [float(data)]
        self._vc = None
        self._requires_grad = _bool(requires_grad, "Value(): argument 'requires_grad'")
        self.grad_fn = None
        self._accumulator = None
        inference.mark(self)

    @classmethod
    def _shared(cls, storage: list[float], vc: list[int] | None) -> Value:
        """A new Value on existing storage and version counter (no checks, no graph)."""
        v = cls.__new__(cls)
        v._storage = storage
        v._vc = vc
        v._requires_grad = False
        v.grad_fn = None
        v._accumulator = None
        return v

    # -- the attributes PyTorch shows ------------------------------------------------
    @property
    def data(self) -> Value:
        """The same storage, detached, with its own version counter (PyTorch's ``.data``)."""
        return self._alias(None)

    @data.setter
    def data(self, other: Value) -> None:
        if not isinstance(other, Value):
            raise TypeError(f"Variable data has to be a tensor, but got {type(other).__name__}")
        self._storage = other._storage

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if not isinstance(flag, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None:
            detail = "" if flag else _DETACH_HINT
            raise RuntimeError("you can only change requires_grad flags of leaf variables." + detail)
        inference.check_requires_grad(self, flag)
        self._requires_grad = flag

    def requires_grad_(self, requires_grad: bool = True) -> Value:
        requires_grad = _bool(requires_grad, "requires_grad_(): argument 'requires_grad' (position 1)")
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError("you can only change requires_grad flags of leaf variables." + _DETACH_HINT)
            return self  # a non-leaf already requires grad: a silent no-op, as in PyTorch
        inference.check_requires_grad(self, requires_grad)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this value is: 0 unless the node has several (torch's name)."""
        return self._output_nr if self.grad_fn is not None and self.grad_fn._outputs else 0

    @property
    def retains_grad(self) -> bool:
        return self.grad_fn is not None and self.grad_fn._output_slot(self)._retained is not None

    @property
    def _version(self) -> int:
        if self._inference:
            inference.check_version(self)  # a value made in inference mode has no version counter
        return 0 if self._vc is None else self._vc[0]

    @property
    def grad(self) -> Value | None:
        if self._grad is None and self.grad_fn is not None and self.grad_fn._output_slot(self)._retained is None:
            warnings.warn(NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Value | None) -> None:
        if value is not None and not isinstance(value, Value):
            raise TypeError(
                f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
            )
        if value is self:
            raise RuntimeError("can't assign Variable as its own grad")
        self._grad = value
        observe.wrote(self, observe.Writer.USER)

    # -- gradients ---------------------------------------------------------------------
    def backward(
        self,
        gradient: Value | Number | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Value | list[Value] | tuple[Value, ...] | None = None,
    ) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (see ``engine.backward``)."""
        from micrograph import engine  # the one late import: the engine works on Values (see __init__)

        engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` during the next backward passes."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        slot = None if self.grad_fn is None else self.grad_fn._output_slot(self)
        if slot is not None and slot._retained is None:
            slot._retained = weakref.ref(self)
            needs_full_loop.add(self.grad_fn)

    def register_hook(self, hook: Callable[[Value], Value | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this value's gradient is computed; a returned Value replaces it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        owner: Value | Node | OutputSlot = self if self.grad_fn is None else self.grad_fn._output_slot(self)
        if owner._hooks is None:
            owner._hooks = []
        owner._hooks.append(hook)
        needs_full_loop.add(self if self.grad_fn is None else self.grad_fn)
        return RemovableHandle(owner._hooks, hook)

    def detach(self) -> Value:
        """A leaf sharing storage *and* version counter: in-place changes through it are seen."""
        return self._alias(self._shared_vc())

    def _alias(self, vc: list[int] | None) -> Value:
        """A leaf on this storage (``detach()``, ``.data``): an inference value's aliases are inference values."""
        v = type(self)._shared(self._storage, vc)  # a bool or int value's alias keeps its dtype
        if self._inference:
            v._inference = True
        return v

    def _shared_vc(self) -> list[int]:
        """The version counter, made now if needed, to be shared with an alias."""
        if self._vc is None:
            self._vc = [0]
        return self._vc

    def detach_(self) -> Value:
        """Make this value a leaf that needs no grad, in place (nodes that saved it then refuse it)."""
        if self.grad_fn is not None:
            self._detached_at = next(sequence)  # nodes created before now saved a non-leaf
            note_detached_in_place()
        self.grad_fn = None
        self._requires_grad = False
        return self

    def _zero_like(self) -> Value:
        """A new constant 0 (no graph, no grad): what a backward formula returns for "no dependence"."""
        return Value(0.0)

    def clone(self) -> Value:
        return _record(ops.CloneBackward0, self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment."
            )
        copy = Value(self._storage[0], requires_grad=self._requires_grad)
        if self._grad is not None:
            copy._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol: int) -> tuple[Any, ...]:
        """Pickling as torch pickles a tensor: its number, ``requires_grad`` and the user's own
        attributes, never its graph, ``.grad`` or hooks (a leaf that was in a graph holds a weak
        reference, which cannot be pickled).  A non-leaf comes back as a leaf that requires grad."""
        own = {k: v for k, v in self.__dict__.items() if not hasattr(Value, k)}
        return _unpickled, (type(self), self._storage[0], self._requires_grad, own)

    # -- arithmetic --------------------------------------------------------------------
    # A Value operand (the usual case) goes straight to ``_record``: ``operand`` and
    # ``wrapped_number`` are for Python numbers, and a call less per op is ~3% of it.
    def __add__(self, other: Any) -> Value:
        return _record(ops.AddBackward0, self, other if isinstance(other, Value) else operand(other))

    __radd__ = __add__  # torch records number + w as add(w, number): w stays the first input

    def __sub__(self, other: Any) -> Value:
        return _record(ops.SubBackward0, self, other if isinstance(other, Value) else operand(other))

    def __rsub__(self, other: Any) -> Value:
        return _record(ops.RsubBackward1, self, operand(other))

    def __mul__(self, other: Any) -> Value:
        return _record(ops.MulBackward0, self, other if isinstance(other, Value) else wrapped_number(other))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Value:
        return _record(ops.DivBackward0, self, other if isinstance(other, Value) else wrapped_number(other))

    def __rtruediv__(self, other: Any) -> Value:
        # PyTorch computes number / w as reciprocal(w) * number.
        return _record(ops.MulBackward0, self.reciprocal(), wrapped_number(other))

    def __pow__(self, other: Any) -> Value:
        op = ops.PowBackward1 if isinstance(other, Value) else ops.IntPowBackward0 if type(other) is int else ops.PowBackward0
        return _record(op, self, operand(other))

    def __rpow__(self, other: Any) -> Value:
        if operand(other) is NotImplemented:
            return NotImplemented  # type: ignore[return-value]  # Python raises its TypeError
        return _record(ops.IntPowBackward2 if type(other) is int else ops.PowBackward2, operand(other), self)

    def __neg__(self) -> Value:
        return _record(ops.NegBackward0, self)

    def __abs__(self) -> Value:
        return _record(ops_math.AbsBackward0, self)

    def reciprocal(self) -> Value:
        return _record(ops_math.ReciprocalBackward0, self)

    def exp(self) -> Value:
        return _record(ops_math.ExpBackward0, self)

    def log(self) -> Value:
        return _record(ops_math.LogBackward0, self)

    def sqrt(self) -> Value:
        return _record(ops_math.SqrtBackward0, self)

    def sin(self) -> Value:
        return _record(ops_math.SinBackward0, self)

    def cos(self) -> Value:
        return _record(ops_math.CosBackward0, self)

    def tanh(self) -> Value:
        return _record(ops_math.TanhBackward0, self)

    def sigmoid(self) -> Value:
        return _record(ops_math.SigmoidBackward0, self)

    def relu(self) -> Value:
        return _record(ops_math.ReluBackward0, self)

    def abs(self) -> Value:
        return _record(ops_math.AbsBackward0, self)

    def sgn(self) -> Value:
        return _record(ops_math.SgnBackward0, self)

    def _as_output_of(self, node: Node) -> Value:
        """A saved result unpacked for create_graph: this data, produced by ``node``."""
        v = Value._shared(self._storage, self._vc)
        v.grad_fn = node
        v._requires_grad = True
        if self._output_nr:  # one of several outputs of node (multi_output.py)
            v._output_nr = self._output_nr
        return v


_DETACH_HINT = (
    " If you want to use a computed variable in a subgraph that doesn't require differentiation "
    "use var_no_grad = var.detach()."
)


def _unpickled(cls: type[Value], number: float, requires_grad: bool, own: dict[str, Any]) -> Value:
    """A pickled Value rebuilt: new storage at version 1, as torch's rebuild (``set_``) leaves it."""
    v = cls._shared([number], [1])
    v._requires_grad = requires_grad
    v.__dict__.update(own)
    return v


# -- recording ---------------------------------------------------------------------------
def _bool(flag: Any, what: str) -> bool:
    """PyTorch refuses 0, 1 or "yes" where it wants a bool: so do we."""
    if not isinstance(flag, bool):
        raise TypeError(f"{what} must be bool, not {type(flag).__name__}")  # a Value's class is named Tensor
    return flag


def _new(data: float) -> Value:
    """A fresh result: new storage, no version counter yet, no graph yet."""
    return Value._shared([data], None)


def _record(op: type[Node], a: Any, b: Any = None) -> Value:
    """Compute ``op`` forward on (a, b) and, when grad mode says so, record its node."""
    if b is None:
        number = op.forward(a._storage[0])
    elif b is NotImplemented:
        return NotImplemented  # type: ignore[return-value]  # Python raises its TypeError
    else:
        number = op.forward(a if type(a) is float else a._storage[0], b if type(b) is float else b._storage[0])
    out = Value.__new__(Value)  # Value._shared([number], None) written out: a call fewer per op, ~6% of it
    out._storage = [number]
    out._vc = None
    out._accumulator = None
    node = make_node(op, a, b, out, a, None) if is_recording() else None
    out.grad_fn = node
    out._requires_grad = node is not None
    if node is None:
        if inference.state.enabled:
            out._inference = True
    elif anomaly.state.enabled:
        anomaly.stamp(node)
    return out
