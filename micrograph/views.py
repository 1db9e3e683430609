"""Views of a 0-dim value: ``v[()]``, ``v[...]``, ``view(())``, ``reshape(())``, ``view_as``.

In torch these return a new tensor on the *same memory* with the *same version
counter* (its ``_base`` is the value viewed), recorded as ``AliasBackward0`` or
``ViewBackward0``: a change in place through the view is a change of the base.
Here too: the view shares the base's storage and version counter.

Only the shapes a 0-dim value keeps are modelled: ``view(1)``/``view(-1)`` would
make a 1-dim tensor, which micrograph does not have (it says so); shapes that
cannot hold one element get torch's own errors.  Changing a view in place while
it requires grad is torch's error for a view of a leaf; for a view of a non-leaf
torch rewrites the base's graph (``CopySlices``), which micrograph does not
model and refuses with a sentence saying so.
"""

from __future__ import annotations

import numbers
from typing import Any, ClassVar

from micrograph import anomaly, inference
from micrograph.grad_mode import is_recording
from micrograph.node import Sends, make_node
from micrograph.ops import CloneBackward0, UnaryOp
from micrograph.value import Value

LEAF_VIEW_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this "
    "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
    "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both "
    "outside (if you want the inplace to be tracked)."
)
NONLEAF_VIEW_INPLACE = (
    "micrograph does not model an in-place change of a view of a non-leaf value (torch rewrites the base's "
    "graph with CopySlices): change a clone() of it instead"
)
ONE_DIM = (
    "{name}{shape} would be a 1-dim tensor of one element; micrograph's Values are 0-dim (torch.Size([])): "
    "use {name}(()) or leave the value as it is"
)


class AliasBackward0(CloneBackward0):
    """``v[()]`` / ``v[...]``: the gradient passes unchanged, as clone's."""

    __slots__ = ()


class ViewBackward0(AliasBackward0):
    """``view``/``reshape`` to ``()``: torch reshapes the gradient back, a view of its memory."""

    __slots__ = ()
    sends = Sends.EXPAND
    consts: ClassVar[tuple[str, ...]] = ("self_sym_sizes",)
    self_sym_sizes = ()  # the shape viewed: always () here


class TBackward0(AliasBackward0):
    """``v.t()``: a 0-dim tensor is its own transpose."""

    __slots__ = ()
    sends = Sends.EXPAND  # torch sends grad.t(), a view of the gradient


class PermuteBackward0(TBackward0):
    """``v.permute(())`` and ``v.T``: the identity on a 0-dim tensor."""

    __slots__ = ()
    consts: ClassVar[tuple[str, ...]] = ("dims",)
    dims = ()


class SqueezeBackward0(AliasBackward0):
    """``v.squeeze()``: nothing to squeeze on a 0-dim tensor."""

    __slots__ = ()
    consts: ClassVar[tuple[str, ...]] = ("self_sym_sizes",)
    self_sym_sizes = ()


class SqueezeBackward1(SqueezeBackward0):
    """``v.squeeze(dim)`` (dim 0 or -1)."""

    __slots__ = ()
    consts = ("dim", "self_sym_sizes")


class ExpandBackward0(SqueezeBackward0):
    """``v.expand(())``: the same shape (torch sums the gradient back to it: the gradient itself)."""

    __slots__ = ()


def squeeze(v: Value, dim: Any) -> Value:
    """``v.squeeze()`` / ``v.squeeze(dim)``: a view of the same 0-dim value."""
    if dim is None:
        return make_view(v, SqueezeBackward0)
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise TypeError(f"squeeze() received an invalid combination of arguments - got ({type(dim).__name__}), "
                        "but expected one of:")
    if dim not in (0, -1):
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})")
    out = make_view(v, SqueezeBackward1)
    if out.grad_fn is not None:
        out.grad_fn.dim = dim % 2**64  # type: ignore[attr-defined]  # torch shows a dim as its C++ unsigned value
    return out


def expand(v: Value, args: tuple[Any, ...]) -> Value:
    """``v.expand(*sizes)``: only to ``()`` here (a 1-dim result is refused, as ``view``'s)."""
    sizes = _shape(args, "expand") if args else ()
    if sizes:
        raise NotImplementedError(ONE_DIM.format(name="expand", shape=tuple(sizes)))
    return make_view(v, ExpandBackward0)


def permute(v: Value, args: tuple[Any, ...]) -> Value:
    """``v.permute(())``: the identity; any dimension given is torch's error for a 0-dim tensor."""
    if not args:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    if dims:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
            f"ordering of dimensions i.e. input.dim() = 0 is not equal to len(dims) = {len(dims)}")
    return make_view(v, PermuteBackward0)


def as_double(v: Value) -> Value:
    """``count.double()``: a new float64 Value of an int or bool Value's number (not a view: a new dtype)."""
    return inference.mark(Value._shared([float(v.item())], None))  # type: ignore[no-any-return]


def make_view(v: Value, op: type[UnaryOp]) -> Value:
    """A view of ``v`` (same storage, same version counter), recorded as ``op`` when grad mode says so."""
    out = v._alias(v._shared_vc())
    out.__dict__["_view_base"] = v._base if v._base is not None else v
    if is_recording():
        node = make_node(op, v, None, out, v, None)
        if node is not None:
            out.grad_fn = node
            out._requires_grad = True
            if anomaly.state.enabled:
                anomaly.stamp(node)
    else:  # torch: a view made under no_grad still requires grad when its base does, as a leaf
        out._requires_grad = v._requires_grad
        out.__dict__["_view_made_without_grad"] = True
        if inference.state.enabled:
            out._inference = True
    return out


def index(v: Value, key: Any) -> Value:
    """``v[key]``: ``()`` and ``...`` alias the value; anything else is torch's IndexError on a 0-dim tensor."""
    if key == () or key is Ellipsis:
        return make_view(v, AliasBackward0)
    if isinstance(key, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(key, numbers.Integral) and not isinstance(key, bool) and key < 0:
        raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
    if isinstance(key, numbers.Integral) and not isinstance(key, bool):
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
            "to convert a 0-dim tensor to a number"
        )
    if key is None or isinstance(key, bool):
        raise NotImplementedError(f"v[{key!r}] would be a 1-dim tensor of one element; micrograph's Values are 0-dim")
    raise IndexError("too many indices for tensor of dimension 0")


def view(v: Value, args: tuple[Any, ...], name: str) -> Value:
    """``v.view(*shape)`` / ``v.reshape(*shape)``: checked as torch checks it, then a view if the shape is ``()``."""
    shape = _shape(args, name)
    inferred = [i for i, d in enumerate(shape) if d == -1]
    if len(inferred) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for i, d in enumerate(shape):
        if d < -1:
            raise RuntimeError(f"invalid shape dimension {d} at index {i} of shape {list(shape)}")
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    if known != 1:  # one element: every given size is 1 (and -1 stands for 1)
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size 1")
    if shape:
        raise NotImplementedError(ONE_DIM.format(name=name, shape=tuple(shape)))
    return make_view(v, ViewBackward0)


def _shape(args: tuple[Any, ...], name: str) -> tuple[int, ...]:
    """The shape given as ``view(2, 3)`` or ``view((2, 3))``, refused with torch's argument-parser texts."""
    if not args:
        if name == "reshape":
            raise TypeError('reshape() missing 1 required positional arguments: "shape"')
        raise TypeError("view() received an invalid combination of arguments - got (), but expected one of:")
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        sizes = tuple(args[0])
    elif len(args) > 1 and name == "reshape" and any(isinstance(a, (tuple, list)) for a in args):
        raise TypeError(f"reshape() takes 1 positional argument but {len(args)} were given")
    else:
        sizes = args
    for pos, d in enumerate(sizes, start=1):
        if isinstance(d, numbers.Integral) and not isinstance(d, bool):
            continue
        if len(sizes) > 1 or isinstance(args[0], (tuple, list)):
            what = "shape" if name == "reshape" else "size"
            raise TypeError(f"{name}(): argument '{what}' failed to unpack the object at pos {pos} with error "
                            f"\"type must be tuple of ints,but got {type(d).__name__}\"")
        if name == "reshape":
            raise TypeError(f"reshape(): argument 'shape' (position 1) must be tuple of ints, not {type(d).__name__}")
        raise TypeError(f"view() received an invalid combination of arguments - got ({type(d).__name__}), "
                        "but expected one of:")
    return tuple(int(d) for d in sizes)


def shape_of(other: Any, name: str) -> tuple[()]:
    """``view_as``/``reshape_as``'s ``other``: a Value (whose shape is ``()``), else torch's TypeError."""
    if not isinstance(other, Value):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    return ()


def check_inplace(v: Value) -> None:
    """Before an in-place op in grad mode changes view ``v``: torch's refusals (see the module docstring)."""
    base = v._base
    if "_view_made_without_grad" in v.__dict__ and base._requires_grad:
        raise RuntimeError(NO_GRAD_VIEW_INPLACE)
    if base._requires_grad and base.grad_fn is None:
        raise RuntimeError(LEAF_VIEW_INPLACE)
    if v._requires_grad:
        raise NotImplementedError(NONLEAF_VIEW_INPLACE)
