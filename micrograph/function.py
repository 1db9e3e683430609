"""Custom differentiable operations, the PyTorch way: ``class MyOp(Function)``.

::

    class Softplus(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x.exp() + 1).log()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_values
            return grad * x.sigmoid()

    y = Softplus.apply(x)          # y.grad_fn.name() == "SoftplusBackward"

As in torch, the node *is* the ``ctx``: each subclass gets its own node class
``<Name>Backward``, and ``apply`` runs ``forward`` under ``no_grad`` (so the
ops inside it are not recorded; the node stands for all of them), then makes
the node the output's ``grad_fn``, with one edge per Value argument.  What
``save_for_backward`` kept lives on the node like any op's saved operands:
checked against in-place changes, freed by a backward without
``retain_graph``, after which reading it raises the second-backward error.

``backward`` receives and returns Values.  During a plain backward nothing it
computes is recorded; with ``create_graph=True`` it is, so a ``backward``
written with differentiable Value ops supports double backward.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, ClassVar

from micrograph import anomaly, inference, multi_output
from micrograph.grad_mode import is_grad_enabled, no_grad
from micrograph.handles import needs_full_loop
from micrograph.node import Grad, Node, gradient_edge, numbered
from micrograph.value import Value


class BackwardCFunction(Node):
    """The node (and ``ctx``) of one call of a custom Function; torch's class of the same name.

    Instances have a ``__dict__``: ``forward`` may leave notes for
    ``backward`` on ``ctx`` (``ctx.k = 3``), as in torch.
    """

    _forward_cls: ClassVar[type[Function]]

    def __init__(self, args: tuple[Any, ...], edges: tuple[Node | None, ...]) -> None:
        super().__init__(edges)
        needs_full_loop.add(self)  # its backward is user code: it may register hooks during the pass
        self._is_value = tuple(isinstance(a, Value) for a in args)
        #: per argument, whether it requires grad (torch's ``ctx.needs_input_grad``, which,
        #: like this, ignores grad mode: under no_grad it still says True)
        self.needs_input_grad = tuple(isinstance(a, Value) and a.requires_grad for a in args)
        self._to_save: tuple[Value | None, ...] = ()
        self._dirty: tuple[Value, ...] = ()
        self._non_differentiable: tuple[Value, ...] = ()
        self.materialize_grads = True

    def mark_dirty(self, *values: Value) -> None:
        """Say ``forward`` changed these inputs in place: the one returned becomes the output itself."""
        self._dirty = values

    def mark_non_differentiable(self, *values: Value) -> None:
        """Say these outputs have no gradient: they come out not requiring grad, with no ``grad_fn``."""
        self._non_differentiable = values

    def set_materialize_grads(self, value: bool) -> None:
        """torch's switch for passing None instead of zeros to ``backward`` for an output no gradient
        reached (with several outputs; with one, ``backward`` only runs when a gradient reached it)."""
        self.materialize_grads = value

    # -- what forward and backward call ------------------------------------------------
    def save_for_backward(self, *values: Value | None) -> None:
        for i, v in enumerate(values):
            if v is not None and not isinstance(v, Value):
                raise TypeError(
                    f"save_for_backward can only save variables, but argument {i} is of type {type(v).__name__}"
                )
        self._to_save = values

    @property
    def saved_values(self) -> tuple[Value | None, ...]:
        """What ``save_for_backward`` kept, version-checked; an error once freed."""
        return tuple(self.unpack(True))

    saved_tensors = saved_values  # torch's name

    # -- the Node protocol ---------------------------------------------------------------
    def _seal(self, outputs: tuple[Any, ...]) -> None:
        """Save what forward asked to keep, stamped with its version now that forward is done.

        A saved output is kept as a bare alias (same number and version counter,
        no ``grad_fn``, its output number): holding the output itself would make a
        cycle through this node, which reference counting never frees.
        """
        numbers = [next((i for i, out in enumerate(outputs) if v is out), None) for v in self._to_save]
        self.saved_is_output = tuple(nr is not None for nr in numbers)
        self.save(tuple(v if nr is None else _alias(v, nr) for v, nr in zip(self._to_save, numbers)),
                  tuple(0 if v is None or v._vc is None else v._vc[0] for v in self._to_save))
        self._to_save = ()
        self._result = next(out for out in outputs if isinstance(out, Value)).item()

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        """Call the user's ``backward`` with Values; one gradient per edge back to the engine."""
        if self._outputs:  # one gradient per output (multi_output.Slots); zeros where none came, unless told not to
            given = multi_output.materialized(grad, create_graph, self.materialize_grads and self._is_tensor_output)
            result = self._forward_cls.backward(self, *(g if g is None or create_graph else Value._shared([g], None)
                                                         for g in given))
        else:
            result = self._forward_cls.backward(self, grad if create_graph else Value._shared([grad], None))
        grads = result if isinstance(result, tuple) else (result,)
        expected = len(self._is_value)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]  # extra Nones are tolerated, as in torch
        if len(grads) != expected:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(grads)})"
            )
        out: list[Grad] = []
        for position, (g, is_value) in enumerate(zip(grads, self._is_value), start=1):
            if g is not None and not isinstance(g, Value):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if not is_value:
                if g is not None:
                    raise RuntimeError(
                        f"function {self.name()} returned a gradient different than None at position "
                        f"{position}, but the corresponding forward input was not a Variable"
                    )
                continue
            if g is None:  # no gradient along this edge: the input's grad stays None
                out.append(None)
            else:
                out.append(g if create_graph else g.item())
        return tuple(out)


class Function:
    """Base class of custom ops: subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``.

    ``forward`` gets the arguments as given (Values, numbers, anything) and
    must return one Value; ``backward`` gets the output's gradient as a Value
    and returns one gradient per ``forward`` argument (a Value, or None for an
    argument that is not a Value or needs none).
    """

    _backward_cls: ClassVar[type[BackwardCFunction]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Instantiating is torch's deprecated legacy style: warned about, and the instance cannot be called."""
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you should "
            "invoke them on the class itself. Instantiating an autograd function will raise an error in a future "
            "version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(
            f"{cls.__name__}Backward", (BackwardCFunction,), {"_forward_cls": cls, "__module__": cls.__module__}
        )

    @staticmethod
    def forward(ctx: BackwardCFunction, *args: Any) -> Value:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: BackwardCFunction, *grads: Value) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function "
            "to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` unrecorded and, if an input needs a gradient, attach a fresh node to the output."""
        if cls is Function:
            raise TypeError("Function.apply is called on a subclass that defines forward and backward")
        if kwargs:  # torch binds keyword arguments to forward's parameters: apply(a=w) is apply(w)
            args = inspect.signature(cls.forward).bind(None, *args, **kwargs).args[1:]
        recording = is_grad_enabled()  # a Function is Python: it records under enable_grad even in inference_mode
        edges = tuple(gradient_edge(a) if recording else None for a in args if isinstance(a, Value))
        ctx = numbered(cls._backward_cls(args, edges), tuple(a for a in args if isinstance(a, Value)))
        with no_grad():
            result = cls.forward(ctx, *args)
        if isinstance(result, tuple):
            return _outputs(result, ctx, edges)
        if not isinstance(result, Value):
            return result  # a number (or anything else) comes back as it is, unrecorded, as in torch
        if any(result is not v for v in ctx._dirty):
            raise RuntimeError(
                "Some elements marked as dirty during the forward method were not returned as output. The inputs "
                "that are modified inplace must all be outputs of the Function."
            )
        if any(result is v for v in ctx._non_differentiable):
            return Value._shared(result._storage, result._shared_vc())
        if any(result is v for v in ctx._dirty):
            return _dirty_output(result, ctx, edges)
        out = inference.mark(Value._shared(result._storage, result._shared_vc()))  # in-place changes reach what was saved
        if any(e is not None for e in edges):
            ctx._seal((result,))
            out.grad_fn = ctx
            out._requires_grad = True
            if anomaly.state.enabled:
                anomaly.stamp(ctx)
        return out


def _alias(v: Value, nr: int) -> Value:
    """A saved output as the node keeps it: same number and version counter, and its output number."""
    alias = Value._shared(v._storage, v._shared_vc())
    if nr:
        alias._output_nr = nr
    return alias


def _outputs(result: tuple[Any, ...], ctx: BackwardCFunction, edges: tuple[Node | None, ...]) -> tuple[Any, ...]:
    """A ``forward`` that returned a tuple: one node for all its outputs (``multi_output.py``).

    Each Value output is a new Value sharing the number (an input changed in place,
    ``mark_dirty``, is that input itself, one version on); anything else comes back as
    it is and takes an output number too, as in torch.  Non-differentiable outputs
    get no ``grad_fn``; the others share ``ctx`` with their output numbers.
    """
    dirty, non_differentiable = ctx._dirty, ctx._non_differentiable
    if any(all(r is not v for r in result) for v in dirty):
        raise RuntimeError(
            "Some elements marked as dirty during the forward method were not returned as output. The inputs "
            "that are modified inplace must all be outputs of the Function."
        )
    outputs: list[Any] = []
    for r in result:
        if isinstance(r, Value) and any(r is v for v in dirty):
            if r.grad_fn is None and r.requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            r._shared_vc()[0] += 1
        elif isinstance(r, Value):
            r = inference.mark(Value._shared(r._storage, r._shared_vc()))
        outputs.append(r)
    ctx._is_tensor_output = tuple(isinstance(r, Value) for r in result)
    if any(e is not None for e in edges) and any(isinstance(r, Value) for r in result):
        ctx._seal(result)
        differentiable = {i: out for i, (out, r) in enumerate(zip(outputs, result))
                          if isinstance(r, Value) and all(r is not v for v in non_differentiable)}
        multi_output.attach(ctx, len(result), differentiable)
        if anomaly.state.enabled:
            anomaly.stamp(ctx)
    return tuple(outputs)


def _dirty_output(result: Value, ctx: BackwardCFunction, edges: tuple[Node | None, ...]) -> Value:
    """An input ``forward`` changed in place (``ctx.mark_dirty``) is the output: one more version,
    and the node as its ``grad_fn``, as torch's in-place ops; a leaf that requires grad is refused."""
    if result.grad_fn is None and result.requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
    result._shared_vc()[0] += 1
    if any(e is not None for e in edges):
        ctx._seal((result,))
        result.grad_fn = ctx
        result._requires_grad = True
        if anomaly.state.enabled:
            anomaly.stamp(ctx)
    return result


def once_differentiable(backward: Any) -> Any:
    """A decorator for ``backward``: it runs unrecorded, so its result has no derivative of its own."""

    @functools.wraps(backward)
    def wrapper(ctx: BackwardCFunction, *grads: Any) -> Any:
        with no_grad():
            return backward(ctx, *grads)

    return wrapper
