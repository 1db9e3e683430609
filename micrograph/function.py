"""Custom differentiable operations, the PyTorch way: ``class MyOp(Function)``.
::

    class Softplus(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x.exp() + 1).log()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x.sigmoid()

    y = Softplus.apply(x)          # y.grad_fn.name() == "SoftplusBackward"

As in torch (``torch/autograd/function.py``, ``python_function.cpp``) the node *is* the ``ctx``, of a class
``<Name>Backward`` per subclass; ``apply`` runs ``forward`` under ``no_grad`` (the node stands for every op inside it).
What ``save_for_backward`` kept is saved like an op's operands.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, ClassVar

from micrograph import hooks
from micrograph.grad_mode import is_grad_enabled, no_grad
from micrograph.node import NO_EDGE, SECOND_BACKWARD, Grad, Node, ReadOnly
from micrograph.value import Value

DIRTY_NOT_RETURNED = ("Some elements marked as dirty during the forward method were not returned as output. The "
                      "inputs that are modified inplace must all be outputs of the Function.")


FUNCTION_BASE = "torch._C._FunctionBase"  # the C class of a custom Function's node, as torch prints it


class BackwardCFunction(Node):
    """The node (and ``ctx``) of one call of a custom Function; torch's class of the same name."""

    _forward_cls: ClassVar[type[Function]]
    num_outputs = 1  # per call: the number of values forward returned
    _freed_buffers = False  # set by a backward without retain_graph
    # torch defines these on the C base of every custom Function's node, and a refused write names it
    next_functions = ReadOnly(Node.next_functions.fget, FUNCTION_BASE)
    metadata = ReadOnly(Node.metadata.fget, FUNCTION_BASE)

    def __repr__(self) -> str:  # torch makes the class in torch.autograd.function, and its repr says so
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    def __init__(self, args: tuple[Any, ...], edges: tuple[Any, ...]) -> None:
        super().__init__(edges)
        self._is_value = tuple(isinstance(a, Value) for a in args)
        # torch's ctx.needs_input_grad ignores grad mode: under no_grad it still says True
        self.needs_input_grad = tuple(isinstance(a, Value) and a.requires_grad for a in args)
        self._to_save: tuple[Value | None, ...] = ()
        self._dirty: tuple[Value, ...] = ()
        self._non_differentiable: tuple[Value, ...] = ()
        self.materialize_grads = True
        self.saves = ()
        self._outputs_saved: dict[int, int] = {}  # saved item -> which output it is (_seal)

    def mark_dirty(self, *values: Value) -> None:
        """Say ``forward`` changed these inputs in place: the one returned becomes the output itself."""
        self._dirty = values

    def mark_non_differentiable(self, *values: Value) -> None:
        self._non_differentiable = values

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    def save_for_backward(self, *values: Value | None) -> None:
        for i, v in enumerate(values):
            if v is not None and not isinstance(v, Value):
                raise TypeError(
                    f"save_for_backward can only save variables, but argument {i} is of type {type(v).__name__}")
        self._to_save = values

    @functools.partial(ReadOnly, owner=FUNCTION_BASE)  # ``ctx.saved_tensors = (x,)`` is refused, as torch's
    def saved_tensors(self) -> tuple[Value | None, ...]:
        """What ``save_for_backward`` kept, version-checked; the second-backward error once freed."""
        if self._freed_buffers:
            raise RuntimeError(SECOND_BACKWARD)
        return tuple(self.unpack(True))

    @functools.partial(ReadOnly, owner=FUNCTION_BASE)
    def saved_variables(self) -> tuple[Value | None, ...]:  # torch's name before 0.4, still read by old code
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    def _seal(self, outputs: tuple[Any, ...]) -> None:
        """Save what forward asked to keep, at its version now that forward is done.  A saved output
        is kept as an alias without ``grad_fn`` (a cycle through this node), a non-differentiable one as it is."""
        items = []
        for i, v in enumerate(self._to_save):
            nr = next((k for k, out in enumerate(outputs) if v is out), None)
            if nr is not None and all(v is not n for n in self._non_differentiable):
                self._outputs_saved[i] = nr
                v = Value.shared(v._storage, v.shared_vc()).as_saved_output(nr)
            items.append(v)
        self.save(tuple(items))
        self._to_save = ()
        self._result = next(out for out in outputs if isinstance(out, Value)).item()

    def _is_result(self, x: Value) -> bool:
        """Whether ``x`` is one of this call's outputs that forward saved (``Node._as_value`` reads it)."""
        return any(item is x for k, item in enumerate(self._saved or ()) if k in self._outputs_saved)

    def release(self) -> None:
        """Free what forward saved.  torch marks the buffers freed even when nothing was saved
        (``has_freed_buffers``): ``saved_tensors`` then raises, though the node can run again."""
        super().release()
        self._freed_buffers = True

    def apply(self, grads: list[Grad]) -> list[Grad]:
        """Call the user's ``backward`` with Values; one gradient per edge back to the engine."""
        create_graph = any(g is not None and type(g) is not float for g in grads)
        grads = [0.0 if g is None and self.materialize_grads and is_value else g
                 for g, is_value in zip(grads, self._is_tensor_output)]
        given = [hooks.as_value(g) for g in grads]
        result = _user_backward(self._forward_cls)(self, *given)
        out_grads = result if isinstance(result, tuple) else (result,)
        expected = len(self._is_value)
        if len(out_grads) > expected and all(g is None for g in out_grads[expected:]):
            out_grads = out_grads[:expected]  # extra Nones are tolerated, as in torch
        if len(out_grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(out_grads)})")
        out: list[Grad] = []
        for position, (g, is_value) in enumerate(zip(out_grads, self._is_value), start=1):
            if not is_value:  # torch checks this first: a number where the input was a number is this error too
                if g is not None:
                    raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                       f"position {position}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Value):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            out.append(None if g is None else g if create_graph else g.item())
        return out


class Function:
    """Base class of custom ops: subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``."""

    _backward_cls: ClassVar[type[BackwardCFunction]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so you should "
            "invoke them on the class itself. Instantiating an autograd function will raise an error in a future "
            "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": cls.__module__})

    @staticmethod
    def forward(ctx: BackwardCFunction, *args: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: BackwardCFunction, *grads: Value) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward  # torch's other name for it: a Function may define either

    @staticmethod
    def setup_context(ctx: BackwardCFunction, inputs: tuple[Any, ...], output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` unrecorded and, if an input needs a gradient, make the node the outputs' grad_fn."""
        if cls is Function:  # torch calls the base forward, which refuses
            raise NotImplementedError("You must implement the forward function for custom autograd.Function.")
        separate = cls.setup_context is not Function.setup_context  # forward(*args), then setup_context(ctx, ...)
        if kwargs or separate:  # torch binds keyword arguments (for forward(*args) defaults too) to its parameters
            bound = inspect.signature(cls.forward).bind(*(() if separate else (None,)), *args, **kwargs)
            if separate:
                bound.apply_defaults()
            args = bound.args[0 if separate else 1:]
        recording = is_grad_enabled()
        edges = tuple(a.gradient_edge() if recording else NO_EDGE for a in args if isinstance(a, Value))
        ctx = cls._backward_cls(args, edges)
        with no_grad():
            result = cls.forward(*args) if separate else cls.forward(ctx, *args)
            if separate:
                cls.setup_context(ctx, args, result)
        single = not isinstance(result, tuple)
        results = (result,) if single else result
        if any(all(r is not v for r in results) for v in ctx._dirty):
            raise RuntimeError(DIRTY_NOT_RETURNED)
        ctx.num_outputs = len(results)
        ctx._is_tensor_output = tuple(isinstance(r, Value) for r in results)
        differentiable = any(fn is not None for fn, _ in edges) and any(ctx._is_tensor_output)
        outputs = []
        for nr, r in enumerate(results):
            dirty = any(r is v for v in ctx._dirty)
            if dirty and r.grad_fn is None and r.requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            if dirty:
                r.shared_vc()[0] += 1
            out = Value.alias(r) if isinstance(r, Value) and not dirty and any(r is a for a in args) else r
            if differentiable and isinstance(r, Value) and all(r is not v for v in ctx._non_differentiable):
                out.set_grad_fn(ctx, nr)
            outputs.append(out)
        if differentiable:
            ctx._seal(results)
        return outputs[0] if single else tuple(outputs)


def _user_backward(cls: type[Function]) -> Any:
    """The Function's ``backward``, or its ``vjp``: torch's ``BackwardCFunction.apply`` refuses both defined."""
    if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                           "You should only implement one of them.")
    return cls.backward if cls.vjp is Function.vjp else cls.vjp


class Error(Node):
    """torch's ``DelayedError``: what a once_differentiable backward's recorded results hang from; it raises."""

    def name(self) -> str:
        return "torch::autograd::Error"

    def apply(self, grads: list[Grad]) -> list[Grad]:
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(backward: Any) -> Any:
    """A decorator for ``backward``: it runs unrecorded; asked for its own derivative, it raises (the ``Error`` node)."""
    @functools.wraps(backward)
    def wrapper(ctx: BackwardCFunction, *grads: Any) -> Any:
        with no_grad():
            outputs = backward(ctx, *grads)
        if not (is_grad_enabled() and any(isinstance(g, Value) and g.requires_grad for g in grads)):
            return outputs
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        node = Error(tuple(NO_EDGE if o is None else o.detach().requires_grad_().gradient_edge() for o in outputs))
        node.num_outputs = len(outputs)
        return tuple(None if o is None else o.detach().set_grad_fn(node, nr) for nr, o in enumerate(outputs))
    return wrapper
