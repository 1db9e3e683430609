"""Integer values: torch's ``int64`` 0-dim tensors, where a student meets them.

They come from counting (``(pred == y).sum()``, ``correct + 1``), from the
indices of ``v.max(0)`` / ``argmax()``, and from torch's wrapped numbers.  Like
a bool Value they never require grad; ``item()`` is a Python ``int``, so
``print(correct.item())`` shows ``2`` as torch does, not ``2.0``.

Arithmetic follows torch's type promotion on 0-dim tensors: bool and int
operands alone give an int (bool with bool stays bool for ``+`` and ``*``,
and ``-`` of a bool is torch's error); anything with a float Value is the
ordinary recorded float op.  Not modelled: torch's ``float32`` results of
``int / int`` and of an int with a Python float (here they are float64).
"""

from __future__ import annotations

import operator
from collections import namedtuple
from typing import Any, Callable

from micrograph import inference
from micrograph.value import Value

BOOL_SUB = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
    "use the `~` or `logical_not()` operator instead."
)
BOOLS_SUB = (
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
    "operator instead."
)
NOT_FLOAT = "only Tensors of floating point dtype can require gradients"

# torch.return_types.max / min: (values, indices), also unpacked as a pair
max_result = namedtuple("max", ["values", "indices"])
min_result = namedtuple("min", ["values", "indices"])

# op -> what bool with bool gives (None: an int), as torch's kernels do
_BOOL_WITH_BOOL: dict[Callable[[Any, Any], Any], Callable[[bool, bool], bool] | None] = {
    operator.add: operator.or_, operator.mul: operator.and_,
    operator.floordiv: None, operator.mod: None, operator.pow: None,
}


class IntegralArithmetic:
    """What int and bool Values share (:class:`IntValue`, the comparisons' ``BoolValue``): they never
    require grad, show their number as ``int``/``bool``, and follow torch's integer arithmetic.

    Each operator tries the integral rule first (:func:`arithmetic`); with a float
    operand it is the ordinary recorded op, operands in the order written.
    """

    __slots__ = ()
    _integral = True
    _dtype_name = "Long"  # as torch's dtype errors name it

    def is_floating_point(self) -> bool:
        return False

    # -- no gradient, ever; shown as the number it holds ---------------------------------
    @property
    def requires_grad(self) -> bool:
        return False

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if not isinstance(flag, bool):
            raise RuntimeError("requires_grad must be a bool")
        if flag:
            raise RuntimeError(NOT_FLOAT)

    def requires_grad_(self, requires_grad: bool = True) -> Any:
        self.requires_grad = requires_grad
        return self

    def tolist(self) -> Any:
        return self.item()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"Value({self.item()})"  # type: ignore[attr-defined]

    def __format__(self, spec: str) -> str:
        return format(self.item(), spec)  # type: ignore[attr-defined]

    # -- reductions of one integral element: no node, the same kind of value --------------
    def sum(self, *args: Any, **kwargs: Any) -> IntValue:
        return IntValue.of(int(self.item()))  # type: ignore[attr-defined]

    prod = sum

    def mean(self, *args: Any, **kwargs: Any) -> Value:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {self._dtype_name}"
        )

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        copy = type(self)._shared([self._storage[0]], None)  # type: ignore[attr-defined]
        return copy if dim is None else max_result(copy, IntValue.of(0))

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        copy = type(self)._shared([self._storage[0]], None)  # type: ignore[attr-defined]
        return copy if dim is None else min_result(copy, IntValue.of(0))

    def clone(self) -> Any:
        return type(self)._shared([self._storage[0]], None)  # type: ignore[attr-defined]

    # -- in place: the result must fit this value's own dtype, as torch checks -------------
    def add_(self, other: Any) -> Any:
        return Value.add_(self, _fits(self, other, "add_"))  # type: ignore[arg-type]

    def sub_(self, other: Any) -> Any:
        return Value.sub_(self, _fits(self, other, "sub_"))  # type: ignore[arg-type]

    def mul_(self, other: Any) -> Any:
        return Value.mul_(self, _fits(self, other, "mul_"))  # type: ignore[arg-type]

    def div_(self, other: Any) -> Any:
        return Value.div_(self, _fits(self, other, "div_"))  # type: ignore[arg-type]

    # -- arithmetic ----------------------------------------------------------------------
    def add(self, other: Any, *, alpha: Any = 1) -> Any:
        scale = integral(alpha)
        if scale is not None and integral(other) is not None:
            return self + IntValue.of(int(integral(other)) * int(scale))  # type: ignore[arg-type]
        return Value.add(self, other, alpha=alpha)  # type: ignore[arg-type]

    def __add__(self, other: Any) -> Any:
        return _op(self, other, operator.add, Value.__add__)

    def __radd__(self, other: Any) -> Any:
        return _rop(self, other, operator.add, Value.__add__, Value.__radd__)

    def __sub__(self, other: Any) -> Any:
        return _op(self, other, operator.sub, Value.__sub__)

    def __rsub__(self, other: Any) -> Any:
        return _rop(self, other, operator.sub, Value.__sub__, Value.__rsub__)

    def __mul__(self, other: Any) -> Any:
        return _op(self, other, operator.mul, Value.__mul__)

    def __rmul__(self, other: Any) -> Any:
        return _rop(self, other, operator.mul, Value.__mul__, Value.__rmul__)

    def __pow__(self, other: Any) -> Any:
        return _op(self, other, operator.pow, Value.__pow__)

    def __rpow__(self, other: Any) -> Any:
        return _rop(self, other, operator.pow, Value.__pow__, Value.__rpow__)

    def __floordiv__(self, other: Any) -> Any:
        return _op(self, other, operator.floordiv, None)

    def __rfloordiv__(self, other: Any) -> Any:
        return _rop(self, other, operator.floordiv, None, None)

    def __mod__(self, other: Any) -> Any:
        return _op(self, other, operator.mod, None)

    def __rmod__(self, other: Any) -> Any:
        return _rop(self, other, operator.mod, None, None)


Forward = Callable[[Any, Any], Any] | None

# torch's promotion order of the dtypes an in-place op can meet here, by their names in its texts
_KINDS = ("Bool", "Long", "Float", "Double")


def _fits(a: Any, other: Any, name: str) -> Any:
    """``other`` for ``a.<name>(other)`` if the result keeps ``a``'s dtype, else torch's error
    ("result type Float can't be cast to the desired output type Long"): a Python float is
    torch's Float, a float Value Double, and true division of integers is at least Float."""
    if isinstance(other, bool):
        kind = "Bool"
    elif isinstance(other, int):
        kind = "Long"
    elif isinstance(other, float):
        kind = "Float"
    else:
        kind = getattr(other, "_dtype_name", None)
        if kind not in _KINDS:
            return other  # not a number: the in-place op's own TypeError
    own = a._dtype_name
    result = max(own, kind, key=_KINDS.index)
    if name == "div_":
        result = max(result, "Float", key=_KINDS.index)
    if name == "sub_" and "Bool" in (own, kind):
        arithmetic(a, other if not isinstance(other, Value) else other, operator.sub, reflected=False)
    if result != own:
        raise RuntimeError(f"result type {result} can't be cast to the desired output type {own}")
    return other


def _op(a: Any, b: Any, op: Callable[[Any, Any], Any], forward: Forward) -> Any:
    result = arithmetic(a, b, op, reflected=False)
    if result is not None:
        return result
    return NotImplemented if forward is None else forward(a, b)


def _rop(a: Any, b: Any, op: Callable[[Any, Any], Any], forward: Forward, reflected: Forward) -> Any:
    """``b <op> a``: Python asks the integral ``a`` first even when ``b`` is a float Value (a subclass
    gets the first word), so a float ``b`` is handed its own forward op: ``w + count`` records ``add(w, count)``."""
    result = arithmetic(a, b, op, reflected=True)
    if result is not None:
        return result
    if isinstance(b, Value) and forward is not None:
        return forward(b, a)
    return NotImplemented if reflected is None else reflected(a, b)


class IntValue(IntegralArithmetic, Value):
    """A one-element ``int64`` tensor: never requires grad, ``item()`` is an ``int``."""

    __slots__ = ()

    @classmethod
    def of(cls, n: int) -> IntValue:
        return inference.mark(cls._shared([float(n)], None))  # type: ignore[no-any-return]

    def item(self) -> int:  # type: ignore[override]
        return int(self._storage[0])

    def __index__(self) -> int:
        return self.item()

    def __neg__(self) -> IntValue:
        return IntValue.of(-self.item())

    def __abs__(self) -> IntValue:
        return IntValue.of(abs(self.item()))

    def __invert__(self) -> IntValue:
        return IntValue.of(~self.item())

    def __and__(self, other: Any) -> Any:
        return _bits(self, other, operator.and_)

    def __or__(self, other: Any) -> Any:
        return _bits(self, other, operator.or_)

    def __xor__(self, other: Any) -> Any:
        return _bits(self, other, operator.xor)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__


def _bits(a: IntValue, b: Any, op: Callable[[int, int], int]) -> Any:
    """torch's bitwise ops of int64 values; with anything else, Python's own TypeError."""
    y = integral(b)
    return NotImplemented if y is None else IntValue.of(op(a.item(), int(y)))


def integral(x: Any) -> int | bool | None:
    """``x`` as an int (or bool) when torch would keep it integral: an Int/Bool Value or a Python int."""
    if isinstance(x, (bool, int)):
        return x
    if getattr(x, "_integral", False):
        return x.item()  # type: ignore[no-any-return]
    return None


def arithmetic(a: Value, b: Any, op: Callable[[Any, Any], Any], reflected: bool) -> Value | None:
    """``op(a, b)`` (``op(b, a)`` when reflected) if both are integral, else None (a float op instead)."""
    x, y = integral(a), integral(b)
    if x is None or y is None:
        return None
    if reflected:
        x, y = y, x
    both_bool = isinstance(x, bool) and isinstance(y, bool)
    if op is operator.sub and (isinstance(x, bool) or isinstance(y, bool)):
        raise RuntimeError(BOOLS_SUB if both_bool else BOOL_SUB)
    if both_bool and _BOOL_WITH_BOOL.get(op) is not None:
        return type(a).of(_BOOL_WITH_BOOL[op](x, y))  # type: ignore[attr-defined]  # a is the BoolValue
    if op is operator.pow and int(y) < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return IntValue.of(op(int(x), int(y)))
