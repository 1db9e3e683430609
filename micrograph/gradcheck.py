"""``gradcheck`` / ``gradgradcheck``: is a backward formula right?  Compare it with finite differences.

As ``torch/autograd/gradcheck.py``: per input that requires grad (only those count as "input i"), the central
difference ``(f(x + eps) - f(x - eps)) / (2 eps)`` must agree with what backward computes within ``atol + rtol *
|numerical|``; the first pair that does not is reported in torch's words. torch's other options (``fast_mode``,
``nondet_tol`` ...) change nothing on one element: fast mode's projection of a 1x1 Jacobian is the Jacobian itself, and
micrograph's backward is deterministic.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from micrograph.arguments import nested_items
from micrograph.engine import grad
from micrograph.grad_mode import enable_grad, no_grad
from micrograph.seeding import uniform
from micrograph.value import Value


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` on a mismatch (a RuntimeError, as torch's is)."""


_COMMON_OPTIONS = {"nondet_tol", "check_undefined_grad", "check_grad_dtypes", "check_batched_grad", "fast_mode",
                   "masked"}
GRADCHECK_OPTIONS = frozenset(_COMMON_OPTIONS | {"check_batched_forward_grad"})
GRADGRADCHECK_OPTIONS = frozenset(_COMMON_OPTIONS | {"gen_non_contig_grad_outputs", "check_fwd_over_rev",
                                                     "check_rev_over_rev"})


def _known_options(given: dict[str, Any], known: frozenset[str], fn_name: str) -> None:
    """An unknown keyword is Python's own TypeError, as for any function."""
    for name in given:
        if name not in known:
            raise TypeError(f"{fn_name}() got an unexpected keyword argument '{name}'")


def gradcheck(fn: Callable[..., Any], inputs: Value | Sequence[Any], *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, check_forward_ad: bool = False,
              check_backward_ad: bool = True, **torch_options: Any) -> bool:
    """True if ``fn(*inputs)`` (a Value or nested lists of them) has the gradients finite differences give, else
    raise (or return False); inputs are perturbed in place through ``.data``. Only outputs that require grad are
    compared ("output j" counts those); with none, each numerical derivative must be zero, as in torch."""
    _known_options(torch_options, GRADCHECK_OPTIONS, "gradcheck")
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if not check_backward_ad:
        raise NotImplementedError("micrograph has no forward-mode AD: gradcheck checks backward (reverse mode) only")
    args = (inputs,) if isinstance(inputs, Value) else tuple(inputs)
    checked = [a for a in args if isinstance(a, Value) and a.requires_grad]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    outputs = _outputs(fn(*args))
    numerical = [_numerical(fn, args, x, eps) for x in checked]  # [input][output]
    differentiable = [j for j, out in enumerate(outputs) if out.requires_grad]
    if not differentiable and any(n != 0 for row in numerical for n in row):
        return _failed("Numerical gradient for function expected to be zero", raise_exception)
    for j, k in enumerate(differentiable):
        grads = grad(outputs[k], checked, retain_graph=True, allow_unused=True)
        for i, a in enumerate(0.0 if g is None else g.item() for g in grads):
            n = numerical[i][k]
            if not abs(a - n) <= atol + rtol * abs(n):  # written so that nan fails
                return _failed(f"Jacobian mismatch for output {j} with respect to input {i},\n"
                               f"numerical:{n!r}\nanalytical:{a!r}\n", raise_exception)
    return True


def _failed(message: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def _numerical(fn: Callable[..., Any], args: tuple[Any, ...], x: Value, eps: float) -> list[float]:
    """d(output_j)/dx for every output j, by central differences (x - eps first, as torch)."""
    original = x.item()
    storage = x.data  # shares x's number but not its version counter: saved-value checks stay quiet
    try:
        with no_grad():
            storage.fill_(original - eps)
            below = [o.item() for o in _outputs(fn(*args))]
            storage.fill_(original + eps)
            above = [o.item() for o in _outputs(fn(*args))]
    finally:
        storage.fill_(original)
    return [(b - a) / (2 * eps) for a, b in zip(below, above)]


def _outputs(result: Any) -> list[Value]:
    flat = nested_items([result])
    for out in flat:
        if not isinstance(out, Value):
            raise AttributeError(f"'{type(out).__name__}' object has no attribute 'requires_grad'")  # torch's text
    return flat


def gradgradcheck(fn: Callable[..., Any], inputs: Value | Sequence[Any],
                  grad_outputs: Value | Sequence[Value] | None = None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, raise_exception: bool = True, **torch_options: Any) -> bool:
    """Check second derivatives: ``gradcheck`` of ``(inputs, v) -> v · d fn / d inputs`` (recorded with
    ``create_graph=True``), ``v`` being ``grad_outputs`` or random numbers in [-1, 1] that require grad."""
    _known_options(torch_options, GRADGRADCHECK_OPTIONS, "gradgradcheck")
    args = (inputs,) if isinstance(inputs, Value) else tuple(inputs)
    if grad_outputs is None:
        outputs = [o for o in _outputs(fn(*args)) if o.requires_grad]
        vs: tuple[Value, ...] = tuple(Value(uniform(-1.0, 1.0), requires_grad=True) for _ in outputs)
    else:
        vs = (grad_outputs,) if isinstance(grad_outputs, Value) else tuple(grad_outputs)
    count = len(vs)
    diff = [i for i, a in enumerate(args) if isinstance(a, Value) and a.requires_grad]

    def first_derivatives(*all_args: Any) -> tuple[Value, ...]:
        given, v = all_args[:-count], all_args[-count:]  # as torch slices: no outputs to check, no arguments
        with enable_grad():  # also while gradcheck's finite differences run under no_grad
            outs = [o for o in _outputs(fn(*given)) if o.requires_grad]
            grads = grad(outs, [given[i] for i in diff], list(v), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, args + vs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)
