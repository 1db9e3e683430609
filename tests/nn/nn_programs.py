"""Programs about custom Functions and gradcheck, written once and run on torch and on micrograph.

``record.py`` runs them on torch (0-dim float64 tensors) and stores what they
observed in ``expected/``; the tests run them on micrograph and compare.  A
program only uses what both libraries spell the same way: ``lib.value``,
``lib.Function``, ``lib.grad``, ``lib.gradcheck``, ``lib.is_grad_enabled`` and
the methods of the values themselves.  Neither library is imported at module
import time, so the tests run without torch.
"""

from __future__ import annotations

import math
import weakref
from typing import Any, Callable

Observations = list[tuple[str, Any]]


class Lib:
    """The names a program may use, bound to ``torch`` or ``micrograph``."""

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "torch":
            import torch

            self.Function = torch.autograd.Function
            self.grad = torch.autograd.grad
            self.gradcheck = torch.autograd.gradcheck
            self.is_grad_enabled = torch.is_grad_enabled
            self.value = lambda x, requires_grad=False: torch.tensor(
                x, dtype=torch.float64, requires_grad=requires_grad
            )
        else:
            import micrograph

            self.Function = micrograph.Function
            self.grad = micrograph.grad
            self.gradcheck = micrograph.gradcheck
            self.is_grad_enabled = micrograph.is_grad_enabled
            self.value = micrograph.Value


def attempt(fn: Callable[[], Any]) -> Any:
    """``fn()``'s result, or its error as ``"error: Type: first line"``."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the error *is* the observation
        return f"error: {type(e).__name__}: {str(e).splitlines()[0]}"


def names(node: Any) -> list[str | None]:
    return [None if n is None else n.name() for n, _ in node.next_functions]


def function_program(lib: Lib) -> Observations:
    """What a custom Function's node is called, saves, frees, checks and raises."""
    obs: Observations = []

    class MyRelu(lib.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            obs.append(("forward runs with grad disabled", not lib.is_grad_enabled()))
            ctx.save_for_backward(x)
            return x.relu()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            obs.append(("backward: grad enabled", lib.is_grad_enabled()))
            (x,) = ctx.saved_tensors
            return g * (1.0 if x.item() > 0 else 0.0)

    x = lib.value(2.0, requires_grad=True)
    y = MyRelu.apply(x)
    obs.append(("grad_fn.name()", y.grad_fn.name()))
    obs.append(("type(grad_fn).__name__", type(y.grad_fn).__name__))
    obs.append(("next_functions", names(y.grad_fn)))
    obs.append(("output requires_grad", y.requires_grad))
    y.backward()
    obs.append(("x.grad", x.grad.item()))
    obs.append(("second backward", attempt(y.backward)))
    obs.append(("saved_tensors after free", attempt(lambda: y.grad_fn.saved_tensors)))
    obs.append(("x.grad after failed second", x.grad.item()))

    y = MyRelu.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    obs.append(("x.grad after retain_graph", x.grad.item()))
    obs.append(("create_graph backward", attempt(lambda: lib.grad(MyRelu.apply(x), x, create_graph=True)[0].item())))

    class NoSave(lib.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2.0

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            obs.append(("nothing saved: saved_tensors", list(ctx.saved_tensors)))
            return g * 2.0

    y = NoSave.apply(x)
    y.backward()
    obs.append(("nothing saved: second backward reading saved_tensors", attempt(y.backward)))

    class Affine(lib.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, k: float, b: Any) -> Any:
            obs.append(("needs_input_grad", list(ctx.needs_input_grad)))
            ctx.k = k
            return a * k + b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * ctx.k, None, g

    a = lib.value(1.5, requires_grad=True)
    b = lib.value(0.5)
    y = Affine.apply(a, 3.0, b)
    obs.append(("non-Value argument: next_functions", names(y.grad_fn)))
    y.backward()
    obs.append(("a.grad", a.grad.item()))
    with_nograd = _under_no_grad(lib, lambda: Affine.apply(a, 3.0, b))
    obs.append(("apply under no_grad: grad_fn", None if with_nograd.grad_fn is None else with_nograd.grad_fn.name()))
    obs.append(("no input requires grad: grad_fn", Affine.apply(b, 2.0, b).grad_fn))

    _bad_backwards(lib, obs, a)
    _saved_output(lib, obs)
    _saved_intermediate(lib, obs)
    _double_backward(lib, obs)
    return obs


def _under_no_grad(lib: Lib, fn: Callable[[], Any]) -> Any:
    if lib.name == "torch":
        import torch

        with torch.no_grad():
            return fn()
    import micrograph

    with micrograph.no_grad():
        return fn()


def _bad_backwards(lib: Lib, obs: Observations, a: Any) -> None:
    """The errors torch raises for a backward that returns the wrong things."""

    def make(name: str, returns: Callable[[Any], Any], n_args: int = 1) -> Any:
        def forward(ctx: Any, *args: Any) -> Any:
            return args[0] * 2.0

        def backward(ctx: Any, g: Any) -> Any:
            return returns(g)

        return type(name, (lib.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    too_few = make("TooFew", lambda g: g)
    obs.append(("too few gradients", attempt(lambda: too_few.apply(a, a).backward())))
    too_many = make("TooMany", lambda g: (g, g))
    obs.append(("too many gradients", attempt(lambda: too_many.apply(a).backward())))
    extra_nones = make("ExtraNones", lambda g: (g, None, None))
    obs.append(("extra Nones are dropped", attempt(lambda: extra_nones.apply(a).backward())))
    for_number = make("ForNumber", lambda g: (g, g))
    obs.append(("gradient for a number", attempt(lambda: for_number.apply(a, 2.0).backward())))
    not_a_value = make("NotAValue", lambda g: "oops")
    obs.append(("gradient of a wrong type", attempt(lambda: not_a_value.apply(a).backward())))

    class SavesANumber(lib.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x, 3)
            return x * 2.0

    obs.append(("save_for_backward(number)", attempt(lambda: SavesANumber.apply(a))))
    obs.append(("no forward", attempt(lambda: type("NoForward", (lib.Function,), {}).apply(a))))
    no_backward = type("NoBackward", (lib.Function,), {"forward": staticmethod(lambda ctx, x: x * 2.0)})
    obs.append(("no backward", attempt(lambda: no_backward.apply(a).backward())))


class _ExpBody:
    """forward/backward of exp saving its *output*, shared by two Function classes below."""

    @staticmethod
    def forward(ctx: Any, x: Any) -> Any:
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return g * y


def _exp_function(lib: Lib) -> Any:
    return type("MyExp", (lib.Function,), {"forward": _ExpBody.forward, "backward": _ExpBody.backward})


def _saved_output(lib: Lib, obs: Observations) -> None:
    my_exp = _exp_function(lib)
    x = lib.value(0.5, requires_grad=True)
    y = my_exp.apply(x)
    y.add_(1.0)
    obs.append(("saved output changed in place", attempt(y.backward)))
    x2 = x * 1.0
    y = my_exp.apply(x2)
    x2.mul_(2.0)
    obs.append(("input changed in place, only the output saved", attempt(lambda: lib.grad(y, x)[0].item())))
    x3 = x * 1.0
    y = _softplus(lib).apply(x3)
    x3.mul_(2.0)
    obs.append(("saved input changed in place", attempt(y.backward)))


def _saved_intermediate(lib: Lib, obs: Observations) -> None:
    """A value saved in forward that is neither input nor output lives only on the node."""
    refs: list[Any] = []

    class ExpPlusOne(lib.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            e = x.exp()
            refs.append(weakref.ref(e))
            ctx.save_for_backward(e)
            return e + 1.0

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (e,) = ctx.saved_tensors
            return g * e

    x = lib.value(0.25, requires_grad=True)
    y = ExpPlusOne.apply(x)
    obs.append(("saved intermediate alive before backward", refs[0]() is not None))
    y.backward()
    obs.append(("saved intermediate alive after backward", refs[0]() is not None))
    obs.append(("output still alive", y.item()))


def _double_backward(lib: Lib, obs: Observations) -> None:
    """A backward written with Value ops is itself differentiable under create_graph."""
    softplus = _softplus(lib)
    my_exp = _exp_function(lib)
    for name, fn in (("softplus", softplus), ("exp saving its output", my_exp)):
        x = lib.value(0.7, requires_grad=True)
        y = fn.apply(x)
        (g,) = lib.grad(y, x, create_graph=True)
        obs.append((f"{name}: d/dx", g.item()))
        obs.append((f"{name}: d/dx grad_fn", g.grad_fn.name()))
        obs.append((f"{name}: d/dx next_functions", names(g.grad_fn)))
        (gg,) = lib.grad(g, x)
        obs.append((f"{name}: d2/dx2", gg.item()))


def _softplus(lib: Lib) -> Any:
    class Softplus(lib.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return (x.exp() + 1.0).log()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * x.sigmoid()

    return Softplus


def gradcheck_program(lib: Lib) -> Observations:
    """gradcheck passing a right backward and catching wrong ones, with torch's messages."""
    obs: Observations = []
    softplus = _softplus(lib)
    x = lib.value(0.3, requires_grad=True)
    y = lib.value(-1.2, requires_grad=True)
    obs.append(("softplus", attempt(lambda: lib.gradcheck(softplus.apply, (x,)))))
    obs.append(("softplus, a bare input", attempt(lambda: lib.gradcheck(softplus.apply, x))))

    class Clip(lib.Function):
        """clamp to [-1, 1]: the gradient passes inside, stops outside."""

        @staticmethod
        def forward(ctx: Any, v: Any) -> Any:
            ctx.save_for_backward(v)
            return v * 1.0 if -1.0 < v.item() < 1.0 else v * 0.0 + math.copysign(1.0, v.item())

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (v,) = ctx.saved_tensors
            return g * (1.0 if -1.0 < v.item() < 1.0 else 0.0)

    obs.append(("clip inside", attempt(lambda: lib.gradcheck(Clip.apply, (x,)))))
    obs.append(("clip outside", attempt(lambda: lib.gradcheck(Clip.apply, (y,)))))

    class WrongMul(lib.Function):
        """x * y whose backward gives y the gradient meant for x."""

        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            a, b = ctx.saved_tensors
            return g * b, g * b

    obs.append(("wrong backward", attempt(lambda: lib.gradcheck(WrongMul.apply, (x, y)))))
    obs.append(("wrong backward, no raise", attempt(lambda: lib.gradcheck(WrongMul.apply, (x, y), raise_exception=False))))
    constant = lib.value(2.0)
    obs.append(("input 0 needs no grad", attempt(lambda: lib.gradcheck(WrongMul.apply, (constant, x)))))
    obs.append(("no input requires grad", attempt(lambda: lib.gradcheck(WrongMul.apply, (constant, constant)))))
    obs.append(("x unchanged", x.item()))
    return obs


PROGRAMS: dict[str, Callable[[Lib], Observations]] = {
    "function": function_program,
    "gradcheck": gradcheck_program,
}
