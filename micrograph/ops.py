"""The op table: every differentiable operation, declared once (the math functions,
``exp`` ... ``relu``, continue in ``ops_math.py``).

Each class is one op, named as PyTorch names its backward node, and says three
things: ``forward`` (floats in, float out, IEEE results), ``saves`` (which of
its operands ``a``/``b`` and result ``out`` it keeps for backward, exactly what
PyTorch's node saves, which decides whether a second backward fails), and
``backward(grad, *saved)`` (the local derivative times the incoming gradient,
one entry per input, using PyTorch's own formulas so results agree to the bit).

``inputs`` lists which operands are graph inputs.  For PyTorch's scalar
overloads (``1 - w``, ``w ** 2``, ``2 ** w``) the Python number is an attribute
of the node, not an input, so ``next_functions`` has one entry fewer.

The backward formulas run on floats during a plain backward, and on Values when
``create_graph=True`` (so the backward pass itself is recorded); the helpers
below pick the float or the Value version of each function (``div``, ``scaled``
and ``zero`` serve ``ops_math.py`` too).
"""

from __future__ import annotations

from typing import Any, ClassVar

from micrograph import ieee
from micrograph.node import Grad, Node, Sends


# -- math that works on floats and on Values ------------------------------------
def div(a: Any, b: Any) -> Any:
    return ieee.div(a, b) if type(a) is float and type(b) is float else a / b


def _pow(a: Any, b: Any) -> Any:
    return ieee.pow(a, b) if type(a) is float and type(b) is float else a ** b


def _log(x: Any) -> Any:
    return ieee.log(x) if type(x) is float else x.log()


def _data(x: Any) -> float:
    """The number inside, for the branches of a formula (PyTorch's `where`)."""
    return x if type(x) is float else x.item()


def scaled(x: Any, k: float) -> Any:
    """``x * k`` for a number ``k``: under create_graph torch's Scalar overload, ``MulBackward1``."""
    return x * k if type(x) is float else x._mul_scalar(k)


def zero(like: Any) -> Any:
    """A zero gradient: a number, or under create_graph a constant Value (it records nothing)."""
    return 0.0 if type(like) is float else like._zero_like()


class UnaryOp(Node):
    __slots__ = ()
    inputs: ClassVar[tuple[str, ...]] = ("a",)


class BinaryOp(Node):
    __slots__ = ()
    inputs: ClassVar[tuple[str, ...]] = ("a", "b")


# -- binary ops -------------------------------------------------------------------
class AddBackward0(BinaryOp):
    __slots__ = ()
    sends = Sends.SAME
    saved_constants = {"alpha": 1}
    forward = staticmethod(lambda a, b: a + b)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return g, g


class SubBackward0(BinaryOp):
    __slots__ = ()
    sends = Sends.SAME
    saved_constants = {"alpha": 1}
    forward = staticmethod(lambda a, b: a - b)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return g, -g


class RsubBackward1(BinaryOp):
    """``number - w``: PyTorch's rsub(w, number); the number is not an input."""

    __slots__ = ()
    saved_constants = {"alpha": 1}
    inputs = ("a",)
    forward = staticmethod(lambda a, b: b - a)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (-g,)


class MulBackward0(BinaryOp):
    __slots__ = ()
    saves = ("a", "b")
    saves_only_for = {"a": "b", "b": "a"}
    forward = staticmethod(lambda a, b: a * b)

    @staticmethod
    def backward(g: Grad, a: Any, b: Any) -> tuple[Grad, ...]:
        return None if b is None else g * b, None if a is None else g * a


class DivBackward0(BinaryOp):
    __slots__ = ()
    saves = ("a", "b")
    saves_only_for = {"a": "b"}
    forward = staticmethod(ieee.div)

    @staticmethod
    def backward(g: Grad, a: Any, b: Any) -> tuple[Grad, ...]:
        return div(g, b), None if a is None else -g * div(div(a, b), b)


class PowBackward0(BinaryOp):
    """``w ** number``."""

    __slots__ = ()
    torch_names = {"a": "self", "b": "exponent"}
    inputs = ("a",)
    saves = ("a", "b")
    forward = staticmethod(ieee.pow_number)
    # torch keeps a number exponent as a Scalar, not a saved tensor: ``_saved_exponent`` outlives
    # a freeing backward, and shows the number as it was given (an int stays an int).
    consts = ("exponent",)
    exponent_type: ClassVar[type] = float

    @property
    def exponent(self) -> float | int:
        p = self._saved[1] if self._saved is not None else self.__dict__["_kept_exponent"]
        return self.exponent_type(p)

    def release(self) -> None:
        if self._saved is not None:
            self.__dict__["_kept_exponent"] = self._saved[1]
        self._saved = None

    @staticmethod
    def backward(g: Grad, a: Any, p: Any) -> tuple[Grad, ...]:
        if _data(p) == 0.0:
            return (zero(g),)
        if type(a) is float:
            return (g * (p * ieee.pow_number(a, p - 1.0)),)
        return (g * scaled(a ** (p - 1.0), p),)  # torch: grad * (exponent * self.pow(exponent - 1))


class IntPowBackward0(PowBackward0):
    """``w ** n`` for an int ``n``: torch's PowBackward0, whose ``_saved_exponent`` is that int."""

    __slots__ = ()
    exponent_type = int

    def name(self) -> str:
        return "PowBackward0"


class PowBackward1(BinaryOp):
    """``w ** x``: both operands are Values."""

    __slots__ = ()
    torch_names = {"a": "self", "b": "exponent", "out": "result"}
    saves = ("a", "b", "out")
    forward = staticmethod(ieee.pow)

    @staticmethod
    def backward(g: Grad, a: Any, b: Any, out: Any) -> tuple[Grad, ...]:
        if type(b) is float:
            grad_a = 0.0 if b == 0.0 else g * (b * _pow(a, b - 1.0))
        else:  # torch: where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1))), all recorded
            grad_a = (g * (b * a ** b._sub_scalar(1.0)))._where_zero(b.item() == 0.0)
        return grad_a, _pow_exponent_grad(g, a, b, out)


class PowBackward2(BinaryOp):
    """``number ** w``: the base is not an input."""

    __slots__ = ()
    torch_names = {"a": "self", "b": "exponent", "out": "result"}
    inputs = ("b",)
    saves = ("a", "b", "out")
    forward = staticmethod(ieee.pow)
    base_type: ClassVar[type] = float

    @property
    def _saved_self(self) -> float | int:
        """The number base, a Scalar in torch: shown as given, readable after a freeing backward."""
        return self.base_type(self._saved[0] if self._saved is not None else self.__dict__["_kept_base"])

    def release(self) -> None:
        if self._saved is not None:
            self.__dict__["_kept_base"] = self._saved[0]
        self._saved = None

    @staticmethod
    def backward(g: Grad, a: Any, b: Any, out: Any) -> tuple[Grad, ...]:
        return (_pow_exponent_grad(g, a, b, out),)


class IntPowBackward2(PowBackward2):
    """``n ** w`` for an int ``n``: torch's PowBackward2, whose ``_saved_self`` is that int."""

    __slots__ = ()
    base_type = int

    def name(self) -> str:
        return "PowBackward2"


def _pow_exponent_grad(g: Grad, base: Any, exponent: Any, out: Any) -> Grad:
    """d(base**e)/de = base**e * ln(base); 0 where base == 0 and e >= 0 (not nan).

    Recorded (create_graph) as torch writes it: ``grad * where(cond, 0, result * log(base))``
    for a Value base; for a number base ``result * log(base)`` is a ``MulBackward1``, inside a
    ``where`` only when the base is 0.
    """
    at_zero = _data(base) == 0.0 and _data(exponent) >= 0.0
    if type(out) is float:
        return g * (0.0 if at_zero else out * _log(base))  # a nan grad stays nan, as torch's product
    if type(base) is float:
        term = scaled(out, ieee.log(base))
        return g * (term._where_zero(at_zero) if base == 0.0 else term)
    return g * (out * base.log())._where_zero(at_zero)


# -- unary operators ----------------------------------------------------------
class NegBackward0(UnaryOp):
    __slots__ = ()
    forward = staticmethod(lambda a: -a)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (-g,)


class CloneBackward0(UnaryOp):
    __slots__ = ()
    sends = Sends.SAME
    forward = staticmethod(lambda a: a)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (g,)


# -- ops that only exist in place -------------------------------------------------
class ZeroBackward0(UnaryOp):
    """``v.zero_()``: the old value no longer matters."""

    __slots__ = ()
    forward = staticmethod(lambda a: 0.0)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (zero(g),)


class FillBackward2(BinaryOp):
    """``v.fill_(number)``."""

    __slots__ = ()
    inputs = ("a",)
    forward = staticmethod(lambda a, b: b)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return (zero(g),)


class FillBackward3(BinaryOp):
    """``v.fill_(value)``: the gradient goes to the value filled in."""

    __slots__ = ()
    forward = staticmethod(lambda a, b: b)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return zero(g), g


class CopyBackwards(BinaryOp):
    """``v.copy_(src)``: the gradient goes to ``src``; the old value gets none."""

    __slots__ = ()
    forward = staticmethod(lambda a, b: b)

    @staticmethod
    def backward(g: Grad) -> tuple[Grad, ...]:
        return zero(g), g

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"


# -- n-ary reductions -------------------------------------------------------------
class SumBackward0(Node):
    """``micrograph.sum(values)``: one node with an edge to every term."""

    __slots__ = ()
    sends = Sends.EXPAND  # torch: stack(values).sum(), an expand then unbind
    consts = ("self_sym_sizes",)  # torch's _saved_self_sym_sizes: the stacked terms' shape, (n,)
    self_sym_sizes = property(lambda self: (len(self),))

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (grad,) * len(self)


class MeanBackward0(Node):
    __slots__ = ()
    sends = Sends.SPREAD
    consts = ("self_sym_numel", "self_sym_sizes")
    self_sym_sizes = SumBackward0.self_sym_sizes
    self_sym_numel = property(lambda self: len(self))

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        return (div(grad, float(len(self))),) * len(self)
