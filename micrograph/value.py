"""``Value``: a one-element tensor that records the operations made on it.

What PyTorch spreads over ``Tensor``, ``TensorImpl`` and ``AutogradMeta`` is here in one class:

* the number lives in a *storage*, a one-element list, so ``detach()`` and ``.data`` share it: writing through one
  changes the other;
* a *version counter* (another one-element list, made when first needed; ``None`` reads as 0) counts in-place changes.
  ``detach()`` shares it, ``.data`` gets a fresh one, as in PyTorch, which is why a change through ``.data`` escapes
  the saved-value check;
* ``grad_fn`` is the node that made the value (None for a leaf) and ``output_nr`` which of its outputs it is, both
  read-only as torch's (set here by the ops that make the value); ``_gradient`` the accumulated gradient, read
  and written through ``grad`` (and torch's other name for it, ``_grad``).

Every op goes through :func:`record`: the op's forward on the numbers, then, when grad mode is on and an input requires
grad, its node with one edge per input and what it saves.  In-place ops go through :func:`record_inplace`: torch's
leaf check, the version bump, and the *rebase* of ``grad_fn`` onto the new node.
"""

from __future__ import annotations

import functools
import numbers
import warnings
import weakref
from operator import attrgetter
from typing import Any, Callable

from micrograph import observe, ops
from micrograph.grad_mode import is_inference_mode_enabled, is_recording
from micrograph.node import NO_EDGE, AccumulateGrad, Edge, Node, ReadOnly, RemovableHandle, add_hook, sequence

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to "
                     "get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
                     "more details.")
COPY_CONSTRUCT = ("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                  "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).")
VOLATILE_REMOVED = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."
NOT_A_TENSOR = "Variable data has to be a tensor, but got {}"  # .data = x and Variable(x), x not a Value
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
NOT_A_BOOL = "requires_grad must be a bool"  # THPVariable_set_requires_grad (``del`` hands it no object)
_float_warned = False
DETACH_HINT = (
    " If you want to use a computed variable in a subgraph that doesn't require differentiation "
    "use var_no_grad = var.detach()."
)


def _copied_number(data: Any) -> float:
    """``Value(v)`` given a Value, as ``torch.tensor(t)``: a new leaf holding its number, with torch's warning."""
    if not isinstance(data, Value):  # a repr would show numbers
        raise TypeError(f"Value(data) takes a real number, got {type(data).__name__}")
    warnings.warn(COPY_CONSTRUCT, UserWarning, stacklevel=3)
    return data._storage[0]


def _unary(op: type[Node]) -> Callable[[Value], Value]:
    """The method ``v.exp()``: ``op`` recorded on the value."""
    return lambda self: record(op, self)


def _in_place(op: type[Node]) -> Callable[[Value], Value]:
    """The method ``v.exp_()``: ``op`` on the value itself (its storage changed, its ``grad_fn`` rebased)."""
    return lambda self: record_inplace(op, self)


def invalid_arguments(name: str, *args: Any) -> TypeError:
    """torch's argument parser refusing a call; its first line names the types it was given."""
    got = ", ".join("Tensor" if isinstance(a, Value) else type(a).__name__ for a in args)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:")


def _comparison(compare: Callable[[float, float], bool], name: str = "") -> Callable[[Value, Any], Any]:
    """``v < x``: a bool Value, never recorded; ``v.lt(x)`` refuses a non-number as torch does (``<`` lets Python)."""
    def method(self: Value, other: Any) -> Any:
        if not isinstance(other, (Value, numbers.Real)):
            if name:
                raise invalid_arguments(name, other)
            return NotImplemented
        return BoolValue(compare(self._storage[0], other._storage[0] if isinstance(other, Value) else float(other)))
    return method


def _bitwise(kind: str) -> Callable[[Value, Any], Any]:
    """``&``, ``|``, ``^`` of a float Value: torch has no such kernel for Double (bool Values have theirs)."""
    def method(self: Value, other: Any) -> Any:
        if not isinstance(other, (Value, numbers.Real)):
            return NotImplemented
        raise NotImplementedError(f'"bitwise_{kind}_cpu" not implemented for \'Double\'')
    return method


# A tensor attribute torch gives a getter only (``grad_fn``, ``is_leaf``, ``output_nr`` ...): a getset of its C base
# class (``torch/csrc/autograd/python_variable.cpp``, ``THPVariable_properties``), named when a write is refused.
TensorAttribute = functools.partial(ReadOnly, owner="torch._C.TensorBase")


class Value:
    """A scalar that, like a one-element ``torch.Tensor``, can take part in autograd."""

    # What every value needs is a slot; what only leaves and retained values need (hooks, the
    # accumulator, who wrote .grad) is a class-level default until set, in a __dict__ made then.
    __slots__ = ("_storage", "_vc", "_requires_grad", "_node", "_gradient", "__dict__", "__weakref__")
    _output_index = 0  # which output of grad_fn (a node with several outputs sets it per value)
    _accumulator: weakref.ref[AccumulateGrad] | None = None
    _hooks: list[Callable[..., Any]] | None = None  # a leaf's tensor hooks (a non-leaf's are on its node)
    _post_accumulate_hooks: list[Callable[..., Any]] | None = None
    _grad_write: tuple[Any, ...] | None = None  # who last wrote .grad: micrograph.observe.grad_write
    _inference = False  # made inside inference_mode (inference.py)
    _detached_at = -1  # detach_() of a non-leaf: the sequence number then (nodes made before saved a non-leaf)

    def __init__(self, data: Any, *, requires_grad: bool = False) -> None:  # keyword only, as torch.tensor's
        if not isinstance(data, numbers.Real):
            data = _copied_number(data)
        self._storage, self._vc, self._node, self._gradient = [float(data)], None, None, None
        self._requires_grad = _bool(requires_grad, "Value(): argument 'requires_grad'")
        if is_inference_mode_enabled():
            self._inference = True

    @classmethod
    def shared(cls, storage: list[float], vc: list[int] | None) -> Value:
        """A new leaf on existing storage and version counter (no checks, no graph)."""
        v = object.__new__(cls)  # bare: Parameter.__new__ asks for the Value it wraps
        v._storage, v._vc, v._requires_grad, v._node, v._gradient = storage, vc, False, None, None
        return v

    @classmethod
    def alias(cls, source: Value, share_version: bool = True) -> Value:
        """A new leaf of this class on ``source``'s storage and (unless ``.data``) version counter: what
        ``detach()`` returns, and ``nn.Parameter(v)`` (an in-place change through one is seen by the other's checks)."""
        v = cls.shared(source._storage, source.shared_vc() if share_version else None)
        if source._inference:
            v._inference = True
        return v

    # -- the attributes PyTorch shows ----------------------------------------------------
    @property
    def data(self) -> Value:
        """The same storage, detached, with its own version counter (PyTorch's ``.data``)."""
        return Value.alias(self, share_version=False)

    @data.setter
    def data(self, other: Value) -> None:
        if not isinstance(other, Value):
            raise TypeError(NOT_A_TENSOR.format(type(other).__name__))
        self._storage = other._storage

    @data.deleter
    def data(self) -> None:  # THPVariable_set_data
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    # Written only by the ops that make a value (``record``, ``set_grad_fn``, ``detach_``): torch's are getters.
    grad_fn = TensorAttribute(attrgetter("_node"), doc="The node that made this value; None for a leaf.")
    output_nr = TensorAttribute(attrgetter("_output_index"), doc="Which output of ``grad_fn`` this value is.")

    @property
    def _grad_fn(self) -> Node | None:  # torch's: its setter takes None only, as detach_() (THPVariable_set_grad_fn)
        return self._node

    @_grad_fn.setter
    def _grad_fn(self, fn: None) -> None:
        if fn is not None:
            raise RuntimeError("_grad_fn can be only set to None")
        self.detach_()

    @_grad_fn.deleter
    def _grad_fn(self) -> None:
        raise RuntimeError("Deletion of _grad_fn not allowed. Detach tensor instead!")

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if not isinstance(flag, bool):
            raise RuntimeError(NOT_A_BOOL)
        if self._node is not None:
            raise RuntimeError("you can only change requires_grad flags of leaf variables." + ("" if flag else DETACH_HINT))
        self.requires_grad_(flag)

    @requires_grad.deleter
    def requires_grad(self) -> None:
        raise RuntimeError(NOT_A_BOOL)

    def requires_grad_(self, requires_grad: bool = True) -> Value:
        flag = _bool(requires_grad, "requires_grad_(): argument 'requires_grad' (position 1)")
        if self.grad_fn is not None:
            if not flag:
                raise RuntimeError("you can only change requires_grad flags of leaf variables." + DETACH_HINT)
            return self  # a non-leaf already requires grad: a silent no-op, as in PyTorch
        if flag and self._inference and not is_inference_mode_enabled():
            raise RuntimeError(INFERENCE_REQUIRES_GRAD)
        self._requires_grad = flag
        return self

    @TensorAttribute
    def is_leaf(self) -> bool:
        return self._node is None

    name = TensorAttribute(lambda self: None, doc="torch's tensor name (None): not a label a student can set.")

    @property
    def volatile(self) -> bool:  # torch's flag before 0.4, kept for old code: reading it or writing it only warns
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, flag: Any = None) -> None:  # ``del`` too, as torch's setter given no value
        warnings.warn(VOLATILE_REMOVED, UserWarning, stacklevel=2)

    volatile = volatile.deleter(volatile.fset)

    @TensorAttribute
    def _version(self) -> int:
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._vc is None else self._vc[0]

    @TensorAttribute
    def retains_grad(self) -> bool:
        retained = None if self.grad_fn is None else self.grad_fn.retained
        return retained is not None and self.output_nr in retained and retained[self.output_nr]() is self

    @property
    def grad(self) -> Value | None:
        if self._gradient is None and self.grad_fn is not None and not self.retains_grad:
            warnings.warn(NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._gradient

    @grad.setter
    def grad(self, value: Value | None) -> None:
        if value is not None and not isinstance(value, Value):
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
        if value is self:
            raise RuntimeError("can't assign Variable as its own grad")
        if value is None or value is not self._gradient:  # ``w.grad -= g`` assigns the same Value back: no new write
            self._gradient = value
            observe.note_grad_write(self, observe.Writer.USER)

    @grad.deleter
    def grad(self) -> None:  # ``del w.grad`` is PyTorch's ``w.grad = None``, a non-leaf's included
        self.grad = None

    _grad = grad  # torch's ``_grad`` is the same getter and setter as ``grad`` (THPVariable_properties)

    def item(self) -> float:
        return self._storage[0]

    def tolist(self) -> float:
        return self.item()

    # -- gradients -------------------------------------------------------------------------
    def backward(self, gradient: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
                 inputs: Any = None) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (``engine.backward``)."""
        from micrograph import engine  # the one late import: the engine works on Values

        engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` during backward (a hook on its node's output)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None:
            if self.grad_fn.retained is None:
                self.grad_fn.retained, self.grad_fn.hooked = {}, True
            self.grad_fn.retained[self.output_nr] = weakref.ref(self)

    def register_hook(self, hook: Callable[[Value], Value | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this value's gradient is computed; a returned Value replaces it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            return add_hook(self, "_hooks", hook)
        return add_hook(self.grad_fn, "tensor_hooks", _OutputHook(self.output_nr, hook))

    def register_post_accumulate_grad_hook(self, hook: Callable[[Value], None]) -> RemovableHandle:
        """``hook(self)`` after backward has written this leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        return add_hook(self, "_post_accumulate_hooks", hook)

    def gradient_edge(self, create: bool = True) -> Edge:
        """Where this value's gradient goes: its node's output, or a leaf's accumulator (made if
        ``create`` and none is alive: a leaf has one only while a graph uses it)."""
        if self._node is not None:
            return self._node, self._output_index
        acc = None if self._accumulator is None else self._accumulator()
        if acc is None and create and self._requires_grad:
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return (acc, 0) if acc is not None else NO_EDGE

    def set_grad_fn(self, node: Node, output_nr: int = 0) -> Value:
        """Make this value output ``output_nr`` of ``node``: the seam through which nodes made outside
        ``ops.py`` (a custom Function's, ``nn.Linear``'s, ``sum``'s) join the graph."""
        self._node, self._requires_grad = node, True
        if output_nr:
            self._output_index = output_nr
        elif node._result is None:
            node._result = self._storage[0]
        return self

    def as_output_of(self, node: Node) -> Value:
        """This storage as ``node``'s output: a saved result unpacked for create_graph."""
        v = Value.shared(self._storage, self._vc)
        v._node, v._requires_grad = node, True
        if self._output_index:
            v._output_index = self._output_index
        return v

    def as_saved_output(self, output_nr: int) -> Value:
        """This leaf as output ``output_nr`` of a node that saved it, unlinked (a custom Function's saved output)."""
        self._output_index = output_nr
        return self

    def detach(self) -> Value:
        """A leaf sharing storage *and* version counter: in-place changes through it are seen."""
        return Value.alias(self)

    def is_inference(self) -> bool:
        return self._inference

    def shared_vc(self) -> list[int]:
        if self._vc is None:
            self._vc = [0]
        return self._vc

    def detach_(self) -> Value:
        """Make this value a leaf that needs no grad, in place (nodes that saved it refuse it then)."""
        if self.grad_fn is not None:
            self._detached_at = next(sequence)
        self._node, self._requires_grad = None, False
        self.__dict__.pop("_output_index", None)
        return self

    def record_op(self, op: type[Node], other: Any = None, const: Any = None) -> Value:
        """``op`` on this value (and ``other``), recorded as every operator is.  The backward
        formulas of ``ops.py`` call it under ``create_graph`` to record torch's own derivative
        nodes (``TanhBackwardBackward0``, ``MulBackward1`` for ``grad * 2``, ``WhereBackward0``)."""
        return record(op, self, other, const)

    def __deepcopy__(self, memo: dict[int, Any]) -> Value:
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        copy = type(self).shared([self._storage[0]], None).requires_grad_(self._requires_grad)  # a BoolValue stays one
        if self._gradient is not None:
            copy._gradient = self._gradient.__deepcopy__(memo)
        memo[id(self)] = copy
        return copy

    # -- arithmetic: each operator is one op of ops.py -------------------------------------------
    def __add__(self, other: Any) -> Value:
        return record(ops.AddBackward0, self, other)

    __radd__ = __add__  # torch records number + w as add(w, number): w stays the first input

    def __sub__(self, other: Any) -> Value:
        return record(ops.SubBackward0, self, other)

    def __rsub__(self, other: Any) -> Value:
        return record(ops.RsubBackward1, self, other)

    def __mul__(self, other: Any) -> Value:
        return record(ops.MulBackward0, self, other)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Value:
        return record(ops.DivBackward0, self, other)

    def __rtruediv__(self, other: Any) -> Value:
        if not isinstance(other, numbers.Real):
            return NotImplemented
        return self.reciprocal() * other  # torch computes number / w as reciprocal(w) * number

    def __pow__(self, other: Any) -> Value:
        if isinstance(other, Value):
            return record(ops.PowBackward1, self, other)
        if not isinstance(other, numbers.Real):
            return NotImplemented
        return record(ops.PowBackward0, self, other, other)

    def __rpow__(self, other: Any) -> Value:
        if not isinstance(other, numbers.Real):
            return NotImplemented
        return record(ops.PowBackward2, self, other, other)

    def __pos__(self) -> Value:
        return self

    def add(self, other: Any, *, alpha: Any = 1) -> Value:
        return record(ops.AddBackward0, self, _operand(other, "add"), _alpha(alpha, "add"))

    def sub(self, other: Any, *, alpha: Any = 1) -> Value:
        return record(ops.SubBackward0, self, _operand(other, "sub"), _alpha(alpha, "sub"))

    def mul(self, other: Any) -> Value:
        return self * _operand(other, "mul")

    def div(self, other: Any) -> Value:
        return self / _operand(other, "div")

    def pow(self, other: Any) -> Value:
        if not _is_operand(other):
            raise invalid_arguments("pow", other)
        return self ** other

    def square(self) -> Value:
        return self ** 2  # torch's square is pow(self, 2): PowBackward0

    # One op each, and the in-place twin (``exp_``) the same op on the value itself.
    neg = __neg__ = _unary(ops.NegBackward0)
    abs = __abs__ = _unary(ops.AbsBackward0)
    exp, log, sqrt = _unary(ops.ExpBackward0), _unary(ops.LogBackward0), _unary(ops.SqrtBackward0)
    sin, cos, tan = _unary(ops.SinBackward0), _unary(ops.CosBackward0), _unary(ops.TanBackward0)
    tanh, sigmoid, relu = _unary(ops.TanhBackward0), _unary(ops.SigmoidBackward0), _unary(ops.ReluBackward0)
    reciprocal, log1p, sgn = _unary(ops.ReciprocalBackward0), _unary(ops.Log1PBackward0), _unary(ops.SgnBackward0)
    clone = _unary(ops.CloneBackward0)

    def sum(self) -> Value:
        return reduce([self], ops.SumBackward0)

    def mean(self) -> Value:
        return reduce([self], ops.MeanBackward0)
    norm = _unary(ops.LinalgVectorNormBackward0)
    neg_, abs_, exp_, log_ = _in_place(ops.NegBackward0), _in_place(ops.AbsBackward0), _in_place(ops.ExpBackward0), \
        _in_place(ops.LogBackward0)
    sqrt_, sin_, cos_, tanh_ = _in_place(ops.SqrtBackward0), _in_place(ops.SinBackward0), _in_place(ops.CosBackward0), \
        _in_place(ops.TanhBackward0)
    sigmoid_, relu_, zero_ = _in_place(ops.SigmoidBackward0), _in_place(ops.ReluBackward0), _in_place(ops.ZeroBackward0)
    tan_, log1p_, reciprocal_, sgn_ = _in_place(ops.TanBackward0), _in_place(ops.Log1PBackward0), \
        _in_place(ops.ReciprocalBackward0), _in_place(ops.SgnBackward0)
    square_ = lambda self: self.pow_(2)  # noqa: E731 - torch's square_ is pow_(self, 2): PowBackward0

    def clamp(self, min: Any = None, max: Any = None) -> Value:  # noqa: A002 - torch's names
        op, bounds, scalars = ops.clamp_overload(min, max)
        return record(op, self, bounds, scalars)

    clip = clamp

    def clamp_min(self, min: Any) -> Value:  # noqa: A002
        return _bound(record, self, min, ops.ClampMinBackward1, ops.ClampMinBackward0, "clamp_min")

    def clamp_max(self, max: Any) -> Value:  # noqa: A002
        return _bound(record, self, max, ops.ClampMaxBackward1, ops.ClampMaxBackward0, "clamp_max")

    def maximum(self, other: Value) -> Value:
        return record(ops.MaximumBackward0, self, _tensor(other, "maximum"))

    def minimum(self, other: Value) -> Value:
        return record(ops.MinimumBackward0, self, _tensor(other, "minimum"))

    max, min = maximum, minimum  # torch's Tensor.max(other) / min(other)

    def where(self, condition: Value, other: Any) -> Value:
        """``self`` where ``condition`` (a bool Value) holds, else ``other``."""
        if not isinstance(condition, Value) or not _is_operand(other):
            raise invalid_arguments("where", condition, other)
        if not isinstance(condition, BoolValue):
            raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype Double")
        return record(ops.WhereBackward0, self, other, condition)

    # -- in-place ops: same nodes, the value's grad_fn rebased onto them -------------------------
    def add_(self, other: Any, *, alpha: Any = 1) -> Value:
        return record_inplace(ops.AddBackward0, self, _operand(other, "add_"), _alpha(alpha, "add_"))

    def sub_(self, other: Any, *, alpha: Any = 1) -> Value:
        return record_inplace(ops.SubBackward0, self, _operand(other, "sub_"), _alpha(alpha, "sub_"))

    def __iadd__(self, other: Any) -> Value:
        return record_inplace(ops.AddBackward0, self, other) if _is_operand(other) else NotImplemented

    def __isub__(self, other: Any) -> Value:
        return record_inplace(ops.SubBackward0, self, other) if _is_operand(other) else NotImplemented

    def mul_(self, other: Any) -> Value:
        return record_inplace(ops.MulBackward0, self, _operand(other, "mul_"))

    def div_(self, other: Any) -> Value:
        return record_inplace(ops.DivBackward0, self, _operand(other, "div_"))

    def pow_(self, other: Any) -> Value:
        if isinstance(other, Value):
            return record_inplace(ops.PowBackward1, self, other)
        return record_inplace(ops.PowBackward0, self, _operand(other, "pow_"), other)

    def __imul__(self, other: Any) -> Value:
        return self.mul_(other) if _is_operand(other) else NotImplemented

    def __itruediv__(self, other: Any) -> Value:
        return self.div_(other) if _is_operand(other) else NotImplemented

    def __ipow__(self, other: Any) -> Value:
        return self.pow_(other) if _is_operand(other) else NotImplemented

    def clamp_(self, min: Any = None, max: Any = None) -> Value:  # noqa: A002
        return record_inplace(ops.ClampBackward1, self, None, _bounds(min, max))

    clip_ = clamp_
    clamp_min_ = lambda self, min: _bound(record_inplace, self, min, ops.ClampMinBackward1, ops.ClampMinBackward0, "clamp_min_")  # noqa
    clamp_max_ = lambda self, max: _bound(record_inplace, self, max, ops.ClampMaxBackward1, ops.ClampMaxBackward0, "clamp_max_")  # noqa

    def fill_(self, value: Any) -> Value:
        if isinstance(value, Value):
            return record_inplace(ops.FillBackward3, self, value)
        if not _is_operand(value):
            raise invalid_arguments("fill_", value)
        return record_inplace(ops.FillBackward2, self, None, value)

    def copy_(self, src: Any) -> Value:  # torch copies a number in as a constant tensor
        return record_inplace(ops.CopyBackwards, self, src if isinstance(src, Value) else _operand(src, "copy_"))

    # -- Python's number protocol, as a one-element float tensor answers it ----------------------
    def __float__(self) -> float:
        global _float_warned
        if self._requires_grad and not _float_warned:  # once per process, as torch
            _float_warned = True
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                          "behavior.\nConsider using tensor.detach() first.", UserWarning, stacklevel=2)
        return self._storage[0]

    def __int__(self) -> int:
        return int(self._storage[0])

    def __bool__(self) -> bool:
        return self._storage[0] != 0.0

    def __index__(self) -> int:
        raise TypeError("only integer tensors of a single element can be converted to an index")

    def __invert__(self) -> Any:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")

    @TensorAttribute
    def shape(self) -> tuple[()]:
        """A 0-dim tensor's shape, ``()`` (torch.Size([])): what a student prints."""
        return ()

    ndim = TensorAttribute(lambda self: 0)
    dim = ndimension = lambda self: 0  # noqa: E731
    numel = nelement = lambda self: 1  # noqa: E731

    def size(self, dim: int | None = None) -> tuple[()]:
        if dim is not None:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return ()

    def __len__(self) -> int:
        raise TypeError("len() of a 0-d tensor")

    def __iter__(self) -> Any:
        raise TypeError("iteration over a 0-d tensor")

    __and__ = __rand__ = _bitwise("and")
    __or__ = __ror__ = _bitwise("or")
    __xor__ = __rxor__ = _bitwise("xor")

    def __format__(self, spec: str) -> str:
        return format(self._storage[0], spec)

    def __repr__(self) -> str:
        extra = (f", grad_fn=<{self.grad_fn.name()}>" if self.grad_fn is not None
                 else ", requires_grad=True" if self._requires_grad else "")
        return f"Value({format_number(self._storage[0])}{extra})"

    # Comparisons give bool Values (never recorded); hashing stays by identity, as torch's.
    __eq__, __ne__ = _comparison(float.__eq__), _comparison(float.__ne__)  # type: ignore[assignment]
    __lt__, __le__, __gt__, __ge__ = (_comparison(f) for f in (float.__lt__, float.__le__, float.__gt__, float.__ge__))
    eq, ne, lt, le, gt, ge = (_comparison(getattr(float, f"__{n}__"), n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))

    def __hash__(self) -> int:
        return id(self)  # as torch's Tensor.__hash__

    def all(self) -> BoolValue:
        return BoolValue(self._storage[0] != 0.0)

    any = all  # of one element, the same question
    def isclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> BoolValue:
        a, b = self._storage[0], _tensor(other, "isclose")._storage[0]
        if a != a or b != b:
            return BoolValue(equal_nan and a != a and b != b)
        return BoolValue(a == b or abs(a - b) <= atol + rtol * abs(b))

    def allclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        return bool(self.isclose(_tensor(other, "allclose"), rtol, atol, equal_nan))

    def equal(self, other: Value) -> bool:
        return self._storage[0] == _tensor(other, "equal")._storage[0]

    # Indexing a 0-dim tensor: ``v[()]`` is v's element, ``v[mask] = x`` writes where the mask holds.
    def __getitem__(self, index: Any) -> Value:
        if index == () or index is Ellipsis:
            return self if self.grad_fn is None and not self._requires_grad else record(ops.AliasBackward0, self)
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")

    def __setitem__(self, index: Any, value: Any) -> None:
        if isinstance(index, BoolValue):  # torch writes through an unsqueezed view of self, with the mask
            if is_recording() and self.grad_fn is None and self._requires_grad:
                raise RuntimeError(f"a view of {LEAF_INPLACE}")
            if not index.item():
                self.shared_vc()[0] += 1  # index_put_ ran in place, changing nothing
                return
        elif not (index == () or index is Ellipsis):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        self.copy_(value)


def _logical(join: Callable[[bool, bool], bool], otherwise: Callable[..., Any] | None = None) -> Any:
    """A bool's op: with any number (``&``, ``|``, ``^``), or with a bool only, others going to ``otherwise``."""
    def op(self: BoolValue, other: Any) -> Any:
        if isinstance(other, (BoolValue, bool) if otherwise else (Value, numbers.Real)):
            return BoolValue(join(self.item(), bool(other)))
        return otherwise(self, other) if otherwise else NotImplemented
    return op


class BoolValue(Value):
    """What a comparison gives: a bool 0-dim tensor (``item()`` is a bool), never in a graph."""

    __slots__ = ()

    def __init__(self, flag: bool) -> None:
        super().__init__(bool(flag))

    def item(self) -> bool:  # type: ignore[override]
        return self._storage[0] != 0.0

    def __repr__(self) -> str:
        return f"Value({self.item()})"

    def __format__(self, spec: str) -> str:
        return format(self.item(), spec)

    def __neg__(self) -> Value:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")

    def requires_grad_(self, requires_grad: bool = True) -> Value:
        if requires_grad:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        return self

    @Value.requires_grad.setter  # type: ignore[attr-defined]
    def requires_grad(self, flag: bool) -> None:  # torch's setter names complex dtypes too, its method does not
        if flag is True:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        Value.requires_grad.fset(self, flag)  # type: ignore[attr-defined]

    def __invert__(self) -> BoolValue:
        return BoolValue(not self.item())

    __and__ = __rand__ = _logical(bool.__and__)
    __or__ = __ror__ = _logical(bool.__or__)
    __xor__ = __rxor__ = _logical(bool.__xor__)
    __mul__ = __rmul__ = _logical(bool.__and__, Value.__mul__)  # torch keeps a mask times a mask a mask:
    __add__ = __radd__ = _logical(bool.__or__, Value.__add__)  # ``x.ge(a) * x.le(b)`` is a condition ``where`` takes


# Python builds some errors from a class's name ("can only concatenate str (not "Tensor") to str"): torch's, here.
Value.__name__ = BoolValue.__name__ = "Tensor"


class _OutputHook:
    """A tensor hook on one output of a node (torch's ``tensor_pre_hooks`` keyed by output)."""

    __slots__ = ("output_nr", "fn")

    def __init__(self, output_nr: int, fn: Callable[..., Any]) -> None:
        self.output_nr, self.fn = output_nr, fn

    def __call__(self, grad: Value) -> Value | None:
        return self.fn(grad)

    def __eq__(self, other: object) -> bool:  # RemovableHandle.remove finds the hook by its function
        return other is self or other is self.fn


# -- recording -----------------------------------------------------------------------------------
def record(op: type[Node], a: Value, b: Any = None, const: Any = None) -> Value:
    """``op`` on ``a`` (and ``b``: a Value, a number, or a tuple for more inputs), its node recorded."""
    if isinstance(b, Value):
        y, b_requires_grad = b._storage[0], b._requires_grad
    elif b is None and op.unary or type(b) is float or isinstance(b, numbers.Real):
        y, b_requires_grad = b if b is None else float(b), False
    elif type(b) is tuple and op.takes_tuple:
        y = tuple(None if x is None else x._storage[0] for x in b)
        b_requires_grad = any(x is not None and x._requires_grad for x in b)
    else:
        return NotImplemented  # type: ignore[return-value]  # Python raises its own TypeError
    out = Value.__new__(Value)  # Value.shared, inlined: every op makes one
    out._storage, out._vc, out._requires_grad, out._node, out._gradient = [op.forward(a._storage[0], y, const)], None, False, None, None
    if (a._requires_grad or b_requires_grad) and is_recording():
        out._node, out._requires_grad = op.make(a, b, out, const), True
    elif is_inference_mode_enabled():
        out._inference = True
    return out


def reduce(terms: list[Value], op: type[Node]) -> Value:
    """``sum``/``mean`` of Values: one node (``op``) with an edge to every term, added left to right
    from +0 (torch's order of a long sum is not modelled)."""
    total = 0.0
    for t in terms:
        total += t._storage[0]
    out = Value(total / len(terms) if op is ops.MeanBackward0 else total)
    if is_recording() and any(t._requires_grad for t in terms):
        out.set_grad_fn(op(tuple(t.gradient_edge() for t in terms)))
    return out


def record_inplace(op: type[Node], self: Value, b: Any = None, const: Any = None) -> Value:
    """An in-place op: the new number goes into ``self``'s storage, its version counter goes up by one."""
    recording = is_recording() and (self._requires_grad or isinstance(b, Value) and b._requires_grad)
    if recording and self.grad_fn is None and self._requires_grad:
        raise RuntimeError(LEAF_INPLACE)
    if b is not None and not isinstance(b, (Value, numbers.Real)):
        raise TypeError(f"in-place operation got an operand of type {type(b).__name__}")
    before, self._storage[0] = self._storage[0], op.forward(self._storage[0], _number(b), const)
    if self._inference and not is_inference_mode_enabled():
        raise RuntimeError(INFERENCE_INPLACE)  # after the write, as torch's check (the number has changed)
    self.shared_vc()[0] += 1
    return _rebase_history(op, self, b, const, before) if recording else self


def _rebase_history(op: type[Node], self: Value, b: Any, const: Any, before: float) -> Value:
    """A recorded in-place op's node becomes ``self.grad_fn`` (torch's ``rebase_history``), its edge
    pointing where ``self``'s gradient went so far; its formula sees ``self`` as it was ``before``."""
    old = Value.shared([before], None)
    old._requires_grad = True
    node = op.make(self, b, self, const, a_before=old)
    retained = self.grad_fn.retained.pop(self.output_nr, None) if self.grad_fn and self.grad_fn.retained else None
    self._node, self._requires_grad = node, True
    self.__dict__.pop("_output_index", None)
    if retained is not None:  # retain_grad moves with the value
        node.retained, node.hooked = {0: retained}, True
    return self


# -- read-only views for tools that draw or grade a graph (viz, the grader) ---------------------
def peek_grad(v: Value) -> Value | None:
    """``v.grad`` without the non-leaf warning: a diagram or a grader reading it is not the student."""
    return v._gradient


def shares_storage(a: Value, b: Value) -> bool:
    """Whether writing the number through one changes the other (``detach()``, ``.data``)."""
    return a._storage is b._storage


def shares_version_counter(a: Value, b: Value) -> bool:
    """Whether an in-place change through one bumps the other's version (``detach()``: yes, ``.data``: no)."""
    return a._vc is not None and a._vc is b._vc


# -- helpers ----------------------------------------------------------------------------------------
def _bool(flag: Any, what: str) -> bool:
    """PyTorch refuses 0, 1 or "yes" where it wants a bool: so do we."""
    if not isinstance(flag, bool):
        raise TypeError(f"{what} must be bool, not {type(flag).__name__}")
    return flag


def _number(x: Any) -> Any:
    return x._storage[0] if isinstance(x, Value) else None if x is None else float(x)


def _is_operand(x: Any) -> bool:
    return isinstance(x, (Value, numbers.Real))


def _operand(x: Any, name: str) -> Any:
    if isinstance(x, (Value, numbers.Real)):
        return x
    raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(x).__name__}")


def _alpha(alpha: Any, name: str) -> Any:
    """``alpha=`` checked; None for 1 (the node then shows its default ``_saved_alpha``, 1)."""
    return None if type(alpha) is int and alpha == 1 else ops.alpha_number(alpha, name)


def _bound(how: Callable[..., Value], v: Value, bound: Any, with_value: type, with_number: type, name: str) -> Value:
    """``clamp_min``/``clamp_max`` and their in-place twins: a Value bound is an input, a number a constant."""
    return how(with_value, v, bound) if isinstance(bound, Value) else how(with_number, v, None, _operand(bound, name))


def _bounds(lo: Any, hi: Any) -> tuple[Any, Any]:
    if lo is None and hi is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return lo, hi


def _tensor(x: Any, name: str) -> Value:
    if not isinstance(x, Value):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def format_number(x: float) -> str:
    """PyTorch's scalar print style: ``6.``, ``0.3333``, ``1.0000e+10``, ``nan``."""
    if x != x or x in (float("inf"), float("-inf")):
        return repr(x)
    if x != 0.0 and (abs(x) > 1e8 or abs(x) < 1e-4):
        return f"{x:.4e}"
    if x == int(x):
        return f"{x:.0f}." if x or str(x)[0] != "-" else "-0."
    return f"{x:.4f}"
