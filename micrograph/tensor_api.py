"""The rest of a 0-dim tensor's methods: comparisons, shape queries, and torch's extra math.

``Value`` inherits these from :class:`TensorAPI` so that ``value.py`` keeps to
the core (storage, versions, the operators, in-place ops), with torch's method
names for the operators (``add``, ``mul`` ...) and Python's conversions
(``item``, ``float``, ``repr``) here too.  Each method here
hands over to the module where its op is declared (``boolean.py`` for
comparisons, ``ops_extra.py`` and ``reductions.py`` for the ops), imported on
first use because those modules build on ``Value`` itself: the documented seams
``tensor_api -> boolean / ops_extra / reductions`` of ``tests/engine/test_layout.py``.
"""

from __future__ import annotations

import numbers
import operator
import warnings
from typing import TYPE_CHECKING, Any

from micrograph.handles import add_hook
from micrograph.tensor_shape import TensorShape

if TYPE_CHECKING:
    from micrograph.value import Value

_float_warned = False  # PyTorch warns about float(t) once per process


def _boolean() -> Any:
    from micrograph import boolean

    return boolean


def _extra() -> Any:
    from micrograph import ops_extra

    return ops_extra


def _derivatives() -> Any:
    from micrograph import ops_derivatives

    return ops_derivatives


def _spread() -> Any:
    from micrograph import spread

    return spread


def _reductions() -> Any:
    from micrograph import reductions

    return reductions


class TensorAPI(TensorShape):
    """Mixed into ``Value``; ``self`` is always a Value (what it says about its shape, dtype and views: ``TensorShape``)."""

    __slots__ = ()
    # A Python number that ``*`` or ``/`` wrapped into a Value (:func:`wrapped_number`):
    # diagrams still draw it as the number it was.
    _wrapped_number = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Python builds some errors from a class's ``__name__`` (``unsupported operand type(s) for +:
        'Tensor' and 'str'``, ``can only concatenate str (not "Tensor") to str``, ``'<' not supported
        between instances of ...``): micrograph's value classes are named ``Tensor`` there, as torch's.
        Their qualified name (``repr(type(v))``, pickling) stays ``Value``/``IntValue``/``BoolValue``."""
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("micrograph."):
            cls.__name__ = "Tensor"

    # -- comparisons: bool Values, never recorded ----------------------------------------
    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return _boolean().compare(self, other, operator.eq)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return _boolean().compare(self, other, operator.ne)

    def __lt__(self, other: Any) -> Any:
        return _boolean().compare(self, other, operator.lt)

    def __le__(self, other: Any) -> Any:
        return _boolean().compare(self, other, operator.le)

    def __gt__(self, other: Any) -> Any:
        return _boolean().compare(self, other, operator.gt)

    def __ge__(self, other: Any) -> Any:
        return _boolean().compare(self, other, operator.ge)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    # Hashing stays by identity, so Values can key dicts and sets as tensors do.
    def __hash__(self) -> int:
        return id(self)  # as torch's Tensor.__hash__

    def equal(self, other: Value) -> bool:
        """torch's ``equal``: a plain bool, True when the numbers are equal."""
        if not isinstance(other, TensorAPI):
            raise TypeError(f"equal(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
        return bool(self == other)

    def isclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Any:
        """torch's ``isclose``: ``|a - b| <= atol + rtol * |b|`` as a bool Value (infinities equal only to themselves)."""
        return _boolean().isclose(self, other, rtol, atol, equal_nan)

    def allclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        return bool(self.isclose(other, rtol, atol, equal_nan))

    def register_post_accumulate_grad_hook(self: Value, hook: Any) -> Any:  # type: ignore[misc]
        """``hook(self)`` after backward has written this leaf's ``.grad`` (node_hooks.py)."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        return add_hook(self, "_post_accumulate_hooks", hook)

    def is_inference(self: Value) -> bool:  # type: ignore[misc]
        """Made inside ``inference_mode`` (or an alias of such a value)."""
        return self._inference

    # -- torch's method names for the operators --------------------------------------------
    def add(self: Value, other: Any, *, alpha: Any = 1) -> Value:
        other = operand(other, "add", torch_text=True)
        return self + other if alpha == 1 and alpha is not True else self._add_scaled(other, alpha, subtract=False)

    def sub(self: Value, other: Any, *, alpha: Any = 1) -> Value:
        other = operand(other, "sub", torch_text=True)
        return self - other if alpha == 1 and alpha is not True else self._add_scaled(other, alpha, subtract=True)

    def mul(self, other: Any) -> Value:
        return self * operand(other, "mul", torch_text=True)

    def div(self, other: Any) -> Value:
        return self / operand(other, "div", torch_text=True)

    def pow(self, other: Any) -> Value:
        if not isinstance(other, (TensorAPI, numbers.Real)):
            raise TypeError(f"pow() received an invalid combination of arguments - got ({type(other).__name__}), "
                            "but expected one of:")
        return self ** other

    # -- what Python asks of a number, answered as torch's float tensor answers ---------------
    def __index__(self) -> int:
        raise TypeError("only integer tensors of a single element can be converted to an index")

    def __invert__(self) -> Any:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")

    def __and__(self, other: Any) -> Any:
        return _bitwise(other, "bitwise_and_cpu")

    def __or__(self, other: Any) -> Any:
        return _bitwise(other, "bitwise_or_cpu")

    def __xor__(self, other: Any) -> Any:
        return _bitwise(other, "bitwise_xor_cpu")

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __pos__(self) -> Any:
        return self  # torch's +v is v itself (positive() of a float tensor)

    def neg(self) -> Value:
        return -self

    # -- Python conversions: a one-element tensor is a number ----------------------------
    def item(self: Value) -> float:  # type: ignore[misc]
        return self._storage[0]

    def __float__(self: Value) -> float:  # type: ignore[misc]
        global _float_warned
        if self._requires_grad and not _float_warned:
            _float_warned = True
            warnings.warn(
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                "behavior.\nConsider using tensor.detach() first.",
                UserWarning,
                stacklevel=2,
            )
        return self._storage[0]

    def __int__(self: Value) -> int:  # type: ignore[misc]
        return int(self._storage[0])

    def __bool__(self: Value) -> bool:  # type: ignore[misc]
        return self._storage[0] != 0.0

    def __format__(self: Value, spec: str) -> str:  # type: ignore[misc]
        return format(self._storage[0], spec)  # as a one-element tensor: f"{v}" is "2.0"

    def __repr__(self: Value) -> str:  # type: ignore[misc]
        extra = ""
        if self.grad_fn is not None:
            extra = f", grad_fn=<{self.grad_fn.name()}>"
        elif self._requires_grad:
            extra = ", requires_grad=True"
        return f"Value({_format_number(self._storage[0])}{extra})"

    # -- more math (ops_extra.py) ----------------------------------------------------------
    def clamp(self, min: Any = None, max: Any = None) -> Value:  # noqa: A002 - torch's names
        return _extra().clamp(self, min, max)

    clip = clamp

    def clamp_min(self, min: Any) -> Value:  # noqa: A002
        return _extra().clamp_min(self, min)

    def clamp_max(self, max: Any) -> Value:  # noqa: A002
        return _extra().clamp_max(self, max)

    def _add_scaled(self, other: Any, alpha: Any, subtract: bool) -> Value:
        """``add``/``sub`` with an ``alpha`` other than 1 (value.py's ``add`` and ``sub`` hand over here)."""
        return _extra().add(self, other, alpha, subtract)

    def square(self: Value) -> Value:  # type: ignore[misc]
        return self ** 2  # torch's square is pow(self, 2): PowBackward0

    def tan(self) -> Value:
        return _extra().tan(self)

    def log1p(self) -> Value:
        return _extra().log1p(self)

    def where(self, condition: Any, other: Any) -> Value:
        """torch's ``v.where(condition, other)``: ``where(condition, v, other)``."""
        if not isinstance(condition, TensorAPI):
            kind = "Tensor" if isinstance(other, TensorAPI) else type(other).__name__
            raise TypeError(f"where() received an invalid combination of arguments - got ({type(condition).__name__}, "
                            f"{kind}), but expected one of:")
        return _extra().where(condition, self, other)

    def maximum(self, other: Value) -> Value:
        return _extra().maximum(self, _tensor_other(other, "maximum"))

    def minimum(self, other: Value) -> Value:
        return _extra().minimum(self, _tensor_other(other, "minimum"))

    # -- what ops.py's derivative formulas record under create_graph, as torch's do ----------
    def _mul_scalar(self, k: float) -> Value:
        return _derivatives().mul_scalar(self, k)

    def _sub_scalar(self, k: float) -> Value:
        return _derivatives().sub_scalar(self, k)

    def _add_scalar(self, k: float) -> Value:
        return _derivatives().add_scalar(self, k)

    def _where_zero(self, keep_zero: bool) -> Value:
        return _derivatives().where_zero(keep_zero, self)

    def _tanh_backward(self, grad: Value) -> Value:
        return _derivatives().tanh_backward(grad, self)

    def _sigmoid_backward(self, grad: Value) -> Value:
        return _derivatives().sigmoid_backward(grad, self)

    def _threshold_backward(self, grad: Value) -> Value:
        return _derivatives().threshold_backward(grad, self)

    # -- reductions over the one element (reductions.py) -----------------------------------
    def sum(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "sum", *args, **kwargs)

    def mean(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "mean", *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "prod", *args, **kwargs)

    def nansum(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "nansum", *args, **kwargs)

    def amax(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "amax", *args, **kwargs)

    def amin(self, *args: Any, **kwargs: Any) -> Value:
        return _reductions().reduce(self, "amin", *args, **kwargs)

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        """``v.max()``: the element (MaxBackward1); ``v.max(0)``: (values, indices); ``v.max(w)``: ``maximum``."""
        if isinstance(dim, TensorAPI):
            return _extra().maximum(self, dim)
        return _reductions().max_min(self, dim, "max", keepdim)

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        if isinstance(dim, TensorAPI):
            return _extra().minimum(self, dim)
        return _reductions().max_min(self, dim, "min", keepdim)

    def argmax(self, dim: Any = None, keepdim: bool = False) -> Value:
        return _reductions().arg_max_min(self, dim, keepdim, "argmax")

    def argmin(self, dim: Any = None, keepdim: bool = False) -> Value:
        return _reductions().arg_max_min(self, dim, keepdim, "argmin")

    def is_floating_point(self) -> bool:
        return True  # a Value is float64; comparisons and counts are bool/int (integer.py)

    # -- norm, var, std of the one element (spread.py) ---------------------------------------
    def norm(self: Value, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Value:  # type: ignore[misc]
        return _spread().norm(self, p, dim, keepdim)

    def var(self: Value, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Value:  # type: ignore[misc]
        return _spread().var(self, "var", dim, unbiased, keepdim, correction)

    def std(self: Value, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Value:  # type: ignore[misc]
        return _spread().var(self, "std", dim, unbiased, keepdim, correction)

    def logsumexp(self, dim: Any, keepdim: bool = False) -> Value:
        return _reductions().reduce(self, "logsumexp", dim, keepdim)

    def cumsum(self, dim: Any) -> Value:
        return _reductions().reduce(self, "cumsum", dim, False)


def operand(x: Any, where: str | None = None, torch_text: bool = False) -> Any:
    """A Value stays a Value and a real number becomes a float (``torch_text``: left as given).

    Anything else is ``NotImplemented`` for an operator (so Python raises its own
    TypeError, naming the class ``Tensor`` as torch's) and torch's TypeError naming the method otherwise.
    """
    if isinstance(x, TensorAPI) or type(x) is float:  # TensorAPI: Value's base class
        return x
    if isinstance(x, numbers.Real):
        return x if torch_text else float(x)
    if where is None:
        return NotImplemented
    raise TypeError(f"{where}(): argument 'other' (position 1) must be Tensor, not {type(x).__name__}")


def _tensor_other(x: Any, name: str) -> Any:
    if not isinstance(x, TensorAPI):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _bitwise(other: Any, kernel: str) -> Any:
    """``&``, ``|``, ``^`` of a float Value: torch has no such kernel for Double (bool Values have their own)."""
    if not isinstance(other, (TensorAPI, numbers.Real)):
        return NotImplemented
    raise NotImplementedError(f'"{kernel}" not implemented for \'Double\'')


def wrapped_number(x: Any) -> Any:
    """``mul``/``div``'s operand: a Value stays itself, a Python number is wrapped as torch wraps it
    (``boolean.wrap_number``: the node saves it, ``grad_fn._saved_other`` shows it)."""
    return x if isinstance(x, TensorAPI) else _boolean().wrap_number(x)


def _format_number(x: float) -> str:
    """PyTorch's scalar print style: ``6.``, ``0.3333``, ``1.0000e+10``, ``nan``."""
    if x != x or x in (float("inf"), float("-inf")):
        return repr(x)
    if x != 0.0 and (abs(x) > 1e8 or abs(x) < 1e-4):
        return f"{x:.4e}"
    if x == int(x):
        return f"{x:.0f}." if x or str(x)[0] != "-" else "-0."
    return f"{x:.4f}"
