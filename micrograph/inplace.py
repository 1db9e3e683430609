"""In-place ops (``add_``, ``mul_``, ``+=``, ``zero_`` ...): the same value, a new number.

``Value`` inherits the methods from :class:`InPlace`.

PyTorch adds three rules to an ordinary op when it runs in place, and
:func:`record` applies them in its order:

1. a leaf that requires grad refuses, while grad mode is on, before anything
   changes (its ``.grad`` would no longer be the gradient of what it holds);
2. the number is overwritten and the version counter goes up by one, so a
   node that saved this value (at the old version) refuses it in backward;
3. ``grad_fn`` is *rebased*: the value's new node has the old ``grad_fn`` as
   its input, and a ``retain_grad()`` moves to the new node with it.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

from micrograph import inference, ops, ops_math
from micrograph.grad_mode import is_recording
from micrograph.handles import needs_full_loop
from micrograph.node import Node, make_node
from micrograph.tensor_api import TensorAPI, operand, wrapped_number

if TYPE_CHECKING:
    from micrograph.value import Value

LEAF_INPLACE_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."


def record(op: type[Node], self: Value, b: Any = None) -> Value:
    """``self = op(self, b)`` in place: PyTorch's leaf check, version bump and grad_fn rebase."""
    grad_mode = is_recording()
    if grad_mode and self._view_base is not None:
        self._check_view_inplace()  # a view of a value that requires grad (views.py), checked first as torch
    if grad_mode and self.grad_fn is None and self._requires_grad:
        raise RuntimeError(LEAF_INPLACE_ERROR)  # checked before anything changes
    old = self._storage[0]
    b_version = None if b is None or type(b) is float else 0 if b._vc is None else b._vc[0]
    self._storage[0] = op.forward(old) if b is None else op.forward(old, b if type(b) is float else b._storage[0])
    self._shared_vc()[0] += 1
    if self._inference:
        inference.check_inplace(self)  # torch checks after its kernel ran: the number has changed
    if grad_mode:
        previous = self.grad_fn
        node = make_node(op, self, b, self, old, b_version)  # self's edge is still its previous grad_fn
        if node is not None:
            if previous is not None and previous._retained is not None:
                node._retained, previous._retained = previous._retained, None
                needs_full_loop.add(node)
            self.grad_fn = node
            self._requires_grad = True
    return self


def _number_operand(other: Any, where: str) -> Any:
    """``mul_``/``div_``'s operand: a number wrapped as ``*`` and ``/`` wrap it (the node saves it)."""
    return wrapped_number(other) if isinstance(other, numbers.Real) else operand(other, where)


class InPlace:
    """Mixed into ``Value``: the in-place methods, each recorded by :func:`record`."""

    __slots__ = ()

    def add_(self: Value, other: Any) -> Value:
        return record(ops.AddBackward0, self, operand(other, "add_"))

    def sub_(self: Value, other: Any) -> Value:
        return record(ops.SubBackward0, self, operand(other, "sub_"))

    def mul_(self: Value, other: Any) -> Value:
        return record(ops.MulBackward0, self, _number_operand(other, "mul_"))

    def div_(self: Value, other: Any) -> Value:
        return record(ops.DivBackward0, self, _number_operand(other, "div_"))

    def pow_(self: Value, other: Any) -> Value:
        op = ops.PowBackward1 if isinstance(other, TensorAPI) else ops.IntPowBackward0 if type(other) is int else ops.PowBackward0
        return record(op, self, operand(other, "pow_"))

    def exp_(self: Value) -> Value:
        return record(ops_math.ExpBackward0, self)

    def neg_(self: Value) -> Value:
        return record(ops.NegBackward0, self)

    def zero_(self: Value) -> Value:
        return record(ops.ZeroBackward0, self)

    def fill_(self: Value, value: Any) -> Value:
        if not isinstance(value, (TensorAPI, numbers.Real)):
            raise TypeError(f"fill_() received an invalid combination of arguments - got ({type(value).__name__}), "
                            "but expected one of:")
        value = operand(value, "fill_")
        return record(ops.FillBackward3 if isinstance(value, TensorAPI) else ops.FillBackward2, self, value)

    def copy_(self: Value, src: Any) -> Value:
        return record(ops.CopyBackwards, self, operand(src, "copy_"))

    # ``v += x``: torch's Tensor.__iadd__ returns NotImplemented for what is not a number, so
    # Python raises its own "unsupported operand type(s) for +=" (naming the class Tensor)
    def __iadd__(self: Value, other: Any) -> Value:
        return self.add_(other) if _numeric(other) else NotImplemented

    def __isub__(self: Value, other: Any) -> Value:
        return self.sub_(other) if _numeric(other) else NotImplemented

    def __imul__(self: Value, other: Any) -> Value:
        return self.mul_(other) if _numeric(other) else NotImplemented

    def __itruediv__(self: Value, other: Any) -> Value:
        return self.div_(other) if _numeric(other) else NotImplemented

    def __ipow__(self: Value, other: Any) -> Value:
        return self.pow_(other) if _numeric(other) else NotImplemented


def _numeric(x: Any) -> bool:
    return isinstance(x, (TensorAPI, numbers.Real))
