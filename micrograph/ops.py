"""The op table: every differentiable operation, declared once.

Each class is one op, named as PyTorch names its backward node, and says three things:

* ``forward(a, b, const)``: floats in, a float out, with IEEE results (``ieee.py``);
* ``saves``: torch's names of what its node keeps for backward (``self``, ``other``, ``result``), exactly what
  PyTorch's node saves: that decides which second backward fails and which in-place change is an error.  The order is
  the order torch's generated code unpacks them in;
* ``backward(g, *saved)``: one gradient per input, by PyTorch's formula (``tools/autograd/derivatives.yaml``).

The formulas run on floats in a plain backward and on Values under ``create_graph=True``, where the same arithmetic
records the backward pass as a graph of its own, with torch's nodes: its formulas are C++, so a number in them is a
Scalar (``2 * result`` records ``MulBackward1``), a mask is a ``where`` (``WhereBackward0``), and tanh, sigmoid and
relu's derivatives are ops of their own (``TanhBackwardBackward0`` ...), declared after the math functions.

For torch's scalar overloads (``1 - w``, ``w ** 2``, ``2 ** w``) the Python number is a constant of the node, not an
input, so ``next_functions`` has one entry fewer (``takes_number``).
"""

from __future__ import annotations

import numbers
from typing import Any, ClassVar

from micrograph import ieee
from micrograph.node import NO_EDGE, Grad, Node, ReadOnly


def _f(name: str, x: Any) -> Any:
    """A math function on a float (``ieee``) or on a Value (its method, recorded)."""
    return getattr(ieee, name)(x) if type(x) is float else getattr(x, name)()


def _div(a: Any, b: Any) -> Any:
    return ieee.div(a, b) if type(a) is float and type(b) is float else a / b


def _zero(like: Any) -> Any:
    """A zero gradient: a number, or under create_graph a constant Value (it records nothing)."""
    return 0.0 if type(like) is float else type(like)(0.0)


def _item(x: Any) -> float:
    return x if type(x) is float else x.item()


# torch's formulas are C++, where a number stays a Scalar: ``2 * result`` is ``mul(Tensor, Scalar)``,
# recorded as ``MulBackward1`` (a Python ``w * 2`` wraps the 2 as a tensor: ``MulBackward0``).
def _scaled(x: Any, k: Any) -> Any:
    """``x * k`` for a number ``k`` (``MulBackward1``)."""
    return x * k if type(x) is float else x.record_op(MulBackward1, None, k)


def _plus(x: Any, k: Any) -> Any:
    """``x + k`` for a number ``k`` (``AddBackward1``)."""
    return x + k if type(x) is float else x.record_op(AddBackward1, None, k)


def _minus(x: Any, k: Any) -> Any:
    """``x - k`` for a number ``k`` (``SubBackward1``)."""
    return x - k if type(x) is float else x.record_op(SubBackward1, None, k)


def _where(condition: Any, x: Any, y: Any) -> Any:
    """torch's ``where(condition, x, y)`` in a formula: recorded (``WhereBackward0``) even where it
    picks the constant.  ``condition`` is a comparison of the operands (a bool, or a bool Value)."""
    if type(x) is float and type(y) is float:
        return x if condition else y
    first = x if type(x) is not float else type(y)(x)
    return first.record_op(WhereBackward0, y, condition)


def _masked(condition: Any, g: Grad) -> Grad:
    """``where(condition, grad, 0)``: the gradient where the condition holds."""
    return _where(condition, g, 0.0)


def _derived(op: type[Op], g: Grad, x: Any, const: Any = None) -> Grad:
    """A derivative torch computes as a node of its own (``tanh_backward(grad, result)``): the
    node's forward on floats, recorded as that node under create_graph."""
    return op.forward(g, x, const) if type(g) is float else g.record_op(op, x, const)


class Op(Node):
    """An op's node.  Subclasses declare ``forward``, ``saves`` and ``backward``; ``make`` builds the
    node of one call from that declaration (its edges, what it saves, its constants)."""

    unary: ClassVar[bool] = False
    takes_number: ClassVar[bool] = False  # b is always a Python number, kept as a constant
    takes_tuple: ClassVar[bool] = False  # b is a tuple of Values (more than two inputs)
    operands: ClassVar[tuple[str, str]] = ("self", "other")  # torch's names of the operands a and b
    constants: ClassVar[tuple[str, ...]] = ()  # torch's Scalar attributes (``_saved_alpha``)
    # Saved operands only one input's gradient needs: mul keeps ``self`` for ``other``'s gradient,
    # so it keeps it only when ``other`` has an edge (else changing it in place is no error).
    only_for: ClassVar[dict[str, str]] = {}
    # Derived once per class from the above (``__init_subclass__``): what ``make`` and ``apply`` follow.
    # per saved item: (source: 0 a, 1 b, 2 the result, 3 the constant; the operand it is kept for, or -1)
    _plan: ClassVar[tuple[tuple[int, int], ...]] = ()
    _consts: tuple[Any, ...] = ()  # this call's constants, in ``constants`` order (a class default if none)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        source = {**{name: i for i, name in enumerate(cls.operands)}, "result": 2}
        cls._plan = tuple((source.get(name, 3), source.get(cls.only_for.get(name, ""), -1)) for name in cls.saves)
        for i, name in enumerate(cls.constants):  # ``grad_fn._saved_alpha``: a constant of this call
            setattr(cls, "_saved_" + name, ReadOnly(lambda node, i=i: node._consts[i], name="_saved_" + name))

    @staticmethod
    def forward(a: float, b: float | None, const: Any) -> float:
        raise NotImplementedError

    @staticmethod
    def backward(g: Grad, *saved: Any) -> tuple[Grad, ...]:
        raise NotImplementedError

    @classmethod
    def make(cls, a: Any, b: Any, out: Any, const: Any, a_before: Any = None) -> Node:
        """The node of ``out = op(a, b)`` (``a_before``: an in-place op's ``a`` before the change)."""
        edge_a = a.gradient_edge() if a._requires_grad else NO_EDGE  # an input that needs no grad: no edge
        edges = (edge_a,) if cls.unary or cls.takes_number else \
            (edge_a, b.gradient_edge() if type(b) is not float and getattr(b, "_requires_grad", False) else NO_EDGE)
        node = cls(edges, out._storage[0])
        if cls._plan:  # each saved item is a (as it was), b, the result (an alias: no cycle) or the constant
            items, sources = [], (a if a_before is None else a_before, b, out, const)
            for source, kept_for in cls._plan:
                x = sources[source]
                if kept_for >= 0 and edges[kept_for][0] is None:  # torch's should_compute_output
                    x = None
                elif source == 2:
                    x = out.alias(out)
                elif x is not None and not hasattr(x, "_storage"):
                    x = type(a).shared([float(x)], None)  # a number operand: a 0-dim tensor, as torch saves it
                items.append(x)
            node.save(tuple(items))
        if const is not None and cls.constants:
            node._consts = const if type(const) is tuple else (const,)
        return node

    def apply(self, grads: list[Grad]) -> list[Grad]:
        g = grads[0]
        if g is None:
            return [None] * len(self.next_edges)
        if self._plan:
            return self.backward(g, *self.unpack(type(g) is not float), *self._consts)
        return self.backward(g, *self._consts)


class UnaryOp(Op):
    unary = True


# -- binary ops ------------------------------------------------------------------------------
def alpha_number(alpha: Any, name: str) -> Any:
    """torch's ``alpha=``: a number (a Value stands for its number), not a bool."""
    if isinstance(alpha, bool):
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if hasattr(alpha, "item"):
        return alpha.item()
    if not isinstance(alpha, numbers.Real):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    return alpha


class AddBackward0(Op):
    """``a + b``, and ``a.add(b, alpha=k)``: ``a + k * b`` (``alpha`` None: 1, as ``_saved_alpha`` shows)."""

    constants = ("alpha",)
    _consts = (1,)  # no alpha given: torch shows 1
    forward = staticmethod(lambda a, b, alpha: a + b if alpha is None else a + alpha * b)
    backward = staticmethod(lambda g, alpha: (g, g if alpha == 1 else _scaled(g, alpha)))  # torch's maybe_multiply


class SubBackward0(AddBackward0):
    forward = staticmethod(lambda a, b, alpha: a - b if alpha is None else a - alpha * b)
    backward = staticmethod(lambda g, alpha: (g, -g if alpha == 1 else _scaled(-g, alpha)))


class RsubBackward1(Op):
    """``number - w``: PyTorch's rsub(w, number); the number is not an input."""

    takes_number = True
    constants = ("alpha",)
    _consts = (1,)  # no alpha given: torch shows 1
    forward = staticmethod(lambda a, b, alpha: b - a)
    backward = staticmethod(lambda g, alpha: (-g,))


class MseLossBackward0(Op):
    """``mse_loss(self, target)`` of one element: ``(self - target) ** 2`` (its mean, sum or itself: the
    same number), one node as in torch, its ``reduction`` shown as torch's int (0 none, 1 mean, 2 sum)."""

    operands = ("self", "target")
    saves = ("self", "target")
    constants = ("reduction",)
    forward = staticmethod(lambda a, b, _: (a - b) * (a - b))
    # torch: mse_loss_backward(grad, self, target) = 2 * (self - target) * grad, and target's with the two swapped
    backward = staticmethod(lambda g, a, b, _: (_scaled(a - b, 2.0) * g, _scaled(b - a, 2.0) * g))


class MulBackward0(Op):
    saves = ("other", "self")
    only_for = {"other": "self", "self": "other"}
    forward = staticmethod(lambda a, b, _: a * b)

    @staticmethod
    def backward(g: Grad, other: Any, self: Any) -> tuple[Grad, ...]:
        return None if other is None else g * other, None if self is None else g * self


class DivBackward0(Op):
    saves = ("other", "self")
    only_for = {"self": "other"}
    forward = staticmethod(lambda a, b, _: ieee.div(a, b))

    @staticmethod
    def backward(g: Grad, other: Any, self: Any) -> tuple[Grad, ...]:
        return _div(g, other), None if self is None else -g * _div(_div(self, other), other)


class PowBackward0(Op):
    """``w ** number``: torch keeps the exponent as a Scalar, shown as given (an int stays an int)."""

    takes_number = True
    operands = ("self", "exponent")
    saves = ("self",)
    constants = ("exponent",)
    forward = staticmethod(lambda a, p, _: ieee.pow_number(a, p))

    @staticmethod
    def backward(g: Grad, a: Any, p: Any) -> tuple[Grad, ...]:
        if p == 0:
            return (_zero(g),)
        if type(a) is float:
            return (g * (p * ieee.pow_number(a, p - 1)),)
        return (g * _scaled(a ** (p - 1), p),)  # torch: grad * (exponent * self.pow(exponent - 1))


class PowBackward1(Op):
    """``w ** x``: both operands are Values."""

    operands = ("self", "exponent")
    saves = ("exponent", "self", "result")
    forward = staticmethod(lambda a, b, _: ieee.pow(a, b))

    @staticmethod
    def backward(g: Grad, b: Any, a: Any, out: Any) -> tuple[Grad, ...]:
        if type(g) is float:
            grad_a = 0.0 if b == 0.0 else g * (b * ieee.pow(a, b - 1.0))
            return grad_a, g * (0.0 if a == 0.0 and b >= 0.0 else out * ieee.log(a))
        # torch: where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1))) and
        # grad * where(self == 0 & exponent >= 0, 0, result * self.log())
        grad_a = _where(b == 0.0, _zero(g), g * (b * a ** _minus(b, 1.0)))
        return grad_a, g * _where((a == 0.0) & (b >= 0.0), _zero(g), out * a.log())


class PowBackward2(Op):
    """``number ** w``: the base is a constant (``_saved_self``), the exponent the one input."""

    takes_number = True
    operands = ("exponent", "self")
    saves = ("exponent", "result")
    constants = ("self",)
    forward = staticmethod(lambda a, base, _: ieee.pow(base, a))

    @staticmethod
    def backward(g: Grad, e: Any, out: Any, base: Any) -> tuple[Grad, ...]:
        """torch: ``grad * (result * log(base))``, inside a ``where(exponent >= 0, 0, ...)`` for a base 0."""
        if type(g) is float:
            return (g * (0.0 if base == 0 and e >= 0.0 else out * ieee.log(base)),)
        term = _scaled(out, ieee.log(base))
        return (g * (_where(e >= 0.0, _zero(g), term) if base == 0 else term),)


class MaximumBackward0(Op):
    """The gradient goes to the larger; a tie halves it for both; nan passes it to both (torch's masks)."""

    saves = ("other", "self")
    forward = staticmethod(lambda a, b, _: a if a != a or a > b else b if b != b or b > a else a)

    @staticmethod
    def backward(g: Grad, b: Any, a: Any) -> tuple[Grad, ...]:
        x, y = _item(a), _item(b)
        g = _div(g, 2.0) if x == y else g  # torch: where(self == other, grad / 2, grad).masked_fill_(...)
        return _masked(not x < y, g), _masked(not x > y, g)


class MinimumBackward0(Op):
    saves = ("other", "self")
    forward = staticmethod(lambda a, b, _: a if a != a or a < b else b if b != b or b < a else a)

    @staticmethod
    def backward(g: Grad, b: Any, a: Any) -> tuple[Grad, ...]:
        x, y = _item(a), _item(b)
        g = _div(g, 2.0) if x == y else g
        return _masked(not x > y, g), _masked(not x < y, g)


# -- unary ops ---------------------------------------------------------------------------------
class NegBackward0(UnaryOp):
    forward = staticmethod(lambda a, _, __: -a)
    backward = staticmethod(lambda g: (-g,))


class CloneBackward0(UnaryOp):
    forward = staticmethod(lambda a, _, __: a)
    backward = staticmethod(lambda g: (g,))


class AliasBackward0(CloneBackward0):
    """``v[()]``: a view of the one element."""


class ViewBackward0(CloneBackward0):
    """A view of the one element (``autograd.functional`` reshapes its inputs so)."""


class ReciprocalBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.div(1.0, a))
    backward = staticmethod(lambda g, out: (-g * (out * out),))


class ExpBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.exp(a))
    backward = staticmethod(lambda g, out: (g * out,))


class LogBackward0(UnaryOp):
    saves = ("self",)
    forward = staticmethod(lambda a, _, __: ieee.log(a))
    backward = staticmethod(lambda g, a: (_div(g, a),))


class Log1PBackward0(UnaryOp):
    saves = ("self",)
    forward = staticmethod(lambda a, _, __: ieee.log1p(a))
    backward = staticmethod(lambda g, a: (_div(g, _plus(a, 1.0)),))  # torch: grad / (self + 1)


class SqrtBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.sqrt(a))
    backward = staticmethod(lambda g, out: (_div(g, _scaled(out, 2.0)),))  # torch: grad / (2 * result)


class SinBackward0(UnaryOp):
    saves = ("self",)
    forward = staticmethod(lambda a, _, __: ieee.sin(a))
    backward = staticmethod(lambda g, a: (g * _f("cos", a),))


class CosBackward0(UnaryOp):
    saves = ("self",)
    forward = staticmethod(lambda a, _, __: ieee.cos(a))
    backward = staticmethod(lambda g, a: (g * -_f("sin", a),))


class TanBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.tan(a))
    # grad * (1 + result.pow(2))
    backward = staticmethod(lambda g, out: (g * _plus(out * out if type(out) is float else out ** 2, 1.0),))


class TanhBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.tanh(a))
    backward = staticmethod(lambda g, out: (_derived(TanhBackwardBackward0, g, out),))


class SigmoidBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.sigmoid(a))
    backward = staticmethod(lambda g, out: (_derived(SigmoidBackwardBackward0, g, out),))


class ReluBackward0(UnaryOp):
    saves = ("result",)
    forward = staticmethod(lambda a, _, __: ieee.relu(a))
    # relu is threshold(self, 0, 0): relu'(0) = 0
    backward = staticmethod(lambda g, out: (_derived(ThresholdBackwardBackward0, g, out, 0),))


class AbsBackward0(UnaryOp):
    saves = ("self",)
    forward = staticmethod(lambda a, _, __: abs(a))
    backward = staticmethod(lambda g, a: (g * (ieee.sign(a) if type(a) is float else a.sgn()),))


class LinalgVectorNormBackward0(AbsBackward0):
    """``v.norm()``: of one element, its absolute value (d2l's loop ``while b.norm() < 1000``)."""


class SgnBackward0(UnaryOp):
    """The sign (-1, 0 or 1), whose derivative is 0."""

    forward = staticmethod(lambda a, _, __: ieee.sign(a))
    backward = staticmethod(lambda g: (_zero(g),))


class ClampBackward1(UnaryOp):
    """``clamp(min, max)`` with number bounds (either may be None): the gradient passes where
    ``min <= self <= max`` (torch's ``where(mask, grad, 0)``)."""

    saves = ("self",)
    constants = ("min", "max")
    forward = staticmethod(lambda a, _, bounds: ieee.clamp(a, *bounds))

    @staticmethod
    def backward(g: Grad, a: Any, lo: Any, hi: Any) -> tuple[Grad, ...]:
        inside = a <= hi if lo is None else a >= lo if hi is None else (a >= lo) & (a <= hi)
        return (_masked(inside, g),)


class ClampMinBackward0(UnaryOp):
    saves = ("self",)
    constants = ("min",)
    forward = staticmethod(lambda a, _, lo: ieee.clamp(a, lo, None))
    backward = staticmethod(lambda g, a, lo: (_masked(a >= lo, g),))


class ClampMaxBackward0(UnaryOp):
    saves = ("self",)
    constants = ("max",)
    forward = staticmethod(lambda a, _, hi: ieee.clamp(a, None, hi))
    backward = staticmethod(lambda g, a, hi: (_masked(a <= hi, g),))


class ClampBackward0(Op):
    """``clamp(min, max)`` with Value bounds (either may be None): three inputs, and a bound gets
    the gradient where it won (torch's ``clamp_backward_min_max``)."""

    takes_tuple = True
    saves = ("max", "min", "self")
    forward = staticmethod(lambda a, bounds, _: ieee.clamp(a, *bounds))

    @classmethod
    def make(cls, a: Any, b: Any, out: Any, const: Any, a_before: Any = None) -> Node:
        """Three inputs: ``self`` and the two bounds (an absent one has no edge)."""
        node = cls((a.gradient_edge(), *(NO_EDGE if x is None else x.gradient_edge() for x in b)), out._storage[0])
        node.save((b[1], b[0], a if a_before is None else a_before))
        return node

    @staticmethod
    def backward(g: Grad, hi: Any, lo: Any, a: Any) -> tuple[Grad, ...]:
        if lo is not None and hi is not None:
            return (_masked((a >= lo) & (a <= hi), g), _masked((a < lo) & (lo < hi), g),
                    _masked((a > hi) | (hi < lo), g))
        if lo is not None:
            return _masked(a >= lo, g), _masked(a < lo, g), None
        return _masked(a <= hi, g), None, _masked(a > hi, g)


class ClampMinBackward1(Op):
    """``clamp_min(v)`` with a Value bound: the gradient goes to whichever won (``self`` on a tie)."""

    operands = ("self", "min")
    saves = ("min", "self")
    forward = staticmethod(lambda a, lo, _: ieee.clamp(a, lo, None))
    backward = staticmethod(lambda g, lo, a: (_masked(a >= lo, g), _masked(a < lo, g)))


class ClampMaxBackward1(Op):
    operands = ("self", "max")
    saves = ("max", "self")
    forward = staticmethod(lambda a, hi, _: ieee.clamp(a, None, hi))
    backward = staticmethod(lambda g, hi, a: (_masked(a <= hi, g), _masked(a > hi, g)))


def clamp_overload(lo: Any, hi: Any, before: str = "") -> tuple[type[Op], Any, Any]:
    """torch's two clamp overloads: Value bounds (``ClampBackward0``, each bound an input) or
    numbers (``ClampBackward1``, where a Value that needs no grad stands for its number), not a
    mix.  Returns the op and its ``b`` and ``const`` for ``record``; ``before`` names the
    arguments before the bounds in torch's error (``"Tensor"`` for ``clamp(w, ...)``)."""
    if lo is None and hi is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    given = [(name, x) for name, x in (("min", lo), ("max", hi)) if x is not None]
    if all(hasattr(x, "gradient_edge") for _, x in given):
        return ClampBackward0, (lo, hi), None
    if any(x.requires_grad if hasattr(x, "gradient_edge") else not isinstance(x, numbers.Real) for _, x in given):
        types = ["Tensor" if hasattr(x, "gradient_edge") else type(x).__name__ for _, x in given]
        parts = types if lo is not None else [f"max={t}, " for t in types]  # a lone max is given by name
        got = ", ".join(([before] if before else []) + parts)
        overloads = ("Tensor input, {} min = None, {} max = None, *, Tensor out = None" if before
                     else "{} min = None, {} max = None")
        raise TypeError(f"clamp() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                        + "\n".join(" * (" + overloads.format(t, t) + ")" for t in ("Tensor", "Number")))
    return ClampBackward1, None, tuple(None if x is None else _scalar(x) for x in (lo, hi))


def _scalar(x: Any) -> Any:
    """A number argument as torch keeps it (a Scalar): an int stays an int, a Value is its number."""
    return x.item() if hasattr(x, "item") else x if type(x) in (int, bool) else float(x)


# -- what the formulas record under create_graph: torch's derivatives are ops too -------------------
class MulBackward1(UnaryOp):
    """``x * k`` for a number ``k`` (torch's Scalar overload)."""

    constants = ("other",)
    forward = staticmethod(lambda a, _, k: a * k)
    backward = staticmethod(lambda g, k: (_scaled(g, k),))


class AddBackward1(UnaryOp):
    """``x + k`` for a number ``k``."""

    forward = staticmethod(lambda a, _, k: a + k)
    backward = staticmethod(lambda g: (g,))


class SubBackward1(AddBackward1):
    """``x - k`` for a number ``k``."""

    forward = staticmethod(lambda a, _, k: a - k)


class TanhBackwardBackward0(Op):
    """tanh's derivative ``grad_output * (1 - output²)`` as one node (torch's ``tanh_backward``)."""

    operands = ("grad_output", "output")
    saves = ("grad_output", "output")
    only_for = {"grad_output": "output"}
    forward = staticmethod(lambda g, out, _: g * ieee.one_minus_square(out))

    @staticmethod
    def backward(g: Grad, go: Any, out: Any) -> tuple[Grad, ...]:
        return _derived(TanhBackwardBackward0, g, out), None if go is None else g * (_scaled(out, -2.0) * go)


class SigmoidBackwardBackward0(Op):
    """sigmoid's derivative ``grad_output * (1 - output) * output`` as one node."""

    operands = ("grad_output", "output")
    saves = ("grad_output", "output")
    only_for = {"grad_output": "output"}
    forward = staticmethod(lambda g, out, _: g * (1.0 - out) * out)

    @staticmethod
    def backward(g: Grad, go: Any, out: Any) -> tuple[Grad, ...]:
        grad_out = None if go is None else g * go * _plus(_scaled(out, -2.0), 1.0)  # grad * go * (-2 * output + 1)
        return _derived(SigmoidBackwardBackward0, g, out), grad_out


class ThresholdBackwardBackward0(Op):
    """relu's derivative: ``grad_output`` where ``self > threshold``, else 0; its own derivative by ``self`` is zero."""

    operands = ("grad_output", "self")
    saves = ("self",)
    constants = ("threshold",)
    forward = staticmethod(lambda g, x, threshold: 0.0 if x <= threshold else g)
    backward = staticmethod(lambda g, x, threshold: (_derived(ThresholdBackwardBackward0, g, x, threshold), _zero(g)))


# -- ops that only exist in place ----------------------------------------------------------------
class ZeroBackward0(UnaryOp):
    """``v.zero_()``: the old value no longer matters."""

    forward = staticmethod(lambda a, _, __: 0.0)
    backward = staticmethod(lambda g: (_zero(g),))


class FillBackward2(ZeroBackward0):
    """``v.fill_(number)``."""

    forward = staticmethod(lambda a, _, value: float(value))


class FillBackward3(Op):
    """``v.fill_(value)`` with a Value: the gradient goes to the value filled in."""

    forward = staticmethod(lambda a, b, _: b)
    backward = staticmethod(lambda g: (_zero(g), g))


class CopyBackwards(FillBackward3):
    """``v.copy_(src)``: the gradient goes to ``src``; the old value gets none."""

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"


class WhereBackward0(Op):
    """``where(condition, a, b)``: the condition (a bool Value) is saved, not an input."""

    saves = ("condition",)
    forward = staticmethod(lambda a, b, condition: a if condition else b)
    backward = staticmethod(lambda g, condition: (_masked(condition, g), _where(condition, _zero(g), g)))


# -- n-ary ops over a list of values: one node, one edge per term ----------------------------------
class SumBackward0(Node):
    """``v.sum()`` and ``micrograph.sum(values)``: torch stacks the values and sums them; one node,
    one edge per term (a 0-dim value is a sum of one), each term's gradient the incoming one."""

    def apply(self, grads: list[Grad]) -> list[Grad]:
        return [grads[0]] * len(self.next_edges)


class MeanBackward0(Node):
    """``v.mean()`` and ``micrograph.mean(values)``: each term gets the incoming gradient over n."""

    def apply(self, grads: list[Grad]) -> list[Grad]:
        g = grads[0]
        return [None if g is None else _div(g, float(len(self.next_edges)))] * len(self.next_edges)
