"""Comparisons: ``w == 5`` is a bool Value, as ``tensor == 5`` is a bool tensor in torch.

A student writing ``assert w.grad == 5`` must be checking the number, not the
object: so ``==`` compares data (nan is unequal to itself, ``-0.0 == 0.0``),
and gives a :class:`BoolValue` that is truthy in ``assert``/``if``, does not
require grad and cannot be made to.  Hashing stays by identity (a Value can
key a dict or sit in a set, as a tensor can).  Comparing with something that
is not a number (``None``, a string) is ``NotImplemented``, so Python falls
back to identity: ``w == None`` is ``False``, as in torch.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, Callable

from micrograph import inference
from micrograph.integer import IntegralArithmetic, IntValue
from micrograph.value import Value

Compare = Callable[[float, float], bool]


class BoolValue(IntegralArithmetic, Value):
    """A one-element bool tensor: the result of a comparison (torch's ``dtype=torch.bool``).

    Counting with it is integer arithmetic, as torch's: ``(w > 0) + 1`` is the int Value 2.
    """

    __slots__ = ()
    _dtype_name = "Bool"

    @classmethod
    def of(cls, flag: bool) -> BoolValue:
        return inference.mark(cls._shared([1.0 if flag else 0.0], None))  # type: ignore[no-any-return]

    def item(self) -> bool:  # type: ignore[override]
        return self._storage[0] != 0.0

    def __index__(self) -> int:
        return int(self.item())  # [0] * (w > 0): a bool tensor is an index, as torch's


    def __neg__(self) -> Value:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )

    def __invert__(self) -> BoolValue:
        return BoolValue.of(not self.item())

    logical_not = __invert__

    def __and__(self, other: Any) -> BoolValue:
        return _logical(self, other, operator.and_)

    def __or__(self, other: Any) -> BoolValue:
        return _logical(self, other, operator.or_)

    def __xor__(self, other: Any) -> BoolValue:
        return _logical(self, other, operator.xor)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__


def _logical(a: BoolValue, b: Any, op: Callable[[bool, bool], bool]) -> BoolValue:
    if not isinstance(b, (Value, bool)):
        return NotImplemented  # type: ignore[return-value]
    return BoolValue.of(op(a.item(), bool(b.item() if isinstance(b, Value) else b)))


def compare(a: Value, b: Any, op: Compare) -> BoolValue:
    """``op(a, b)`` on the data, as a BoolValue; never recorded (a comparison has no gradient)."""
    if isinstance(b, Value):
        other = b._storage[0]
    elif isinstance(b, numbers.Real):
        other = float(b)
    else:
        return NotImplemented  # type: ignore[return-value]  # Python falls back (identity for ==)
    return BoolValue.of(op(a._storage[0], other))


def isclose(a: Value, b: Any, rtol: float, atol: float, equal_nan: bool) -> BoolValue:
    """torch's ``isclose`` on one element."""
    if not isinstance(b, Value):
        raise TypeError(f"isclose(): argument 'other' (position 1) must be Tensor, not {type(b).__name__}")
    x, y = a._storage[0], b._storage[0]
    if x != x or y != y:
        return BoolValue.of(equal_nan and x != x and y != y)
    if x == y:
        return BoolValue.of(True)
    finite = abs(x) != float("inf") and abs(y) != float("inf")
    return BoolValue.of(finite and abs(x - y) <= atol + rtol * abs(y))


def wrap_number(x: Any) -> Value:
    """A Python number as torch wraps it for ``*`` and ``/``: a 0-dim tensor of the number's own
    dtype (int64 for an int, bool for a bool, float64 for a float).

    The node saves it, so ``(w * 3).grad_fn._saved_other`` is the int Value 3 (torch's ``tensor(3)``)
    and a create_graph backward multiplies by that same Value.  Anything else is ``NotImplemented``
    (Python raises its own TypeError).
    """
    if type(x) is float:  # the common case (w * 0.5) first: no abstract-class checks
        number: Value = Value._shared([x], None)
    elif isinstance(x, bool):
        number = BoolValue._shared([1.0 if x else 0.0], None)
    elif isinstance(x, numbers.Integral):
        number = IntValue._shared([float(x)], None)
    elif isinstance(x, numbers.Real):
        number = Value._shared([float(x)], None)
    else:
        return NotImplemented  # type: ignore[return-value]
    number._wrapped_number = True  # drawn as the number; never an inference value (made for the op)
    return number
