"""``micrograph.autograd.functional``: ``jacobian``, ``hessian``, ``vjp`` (and ``jvp``, ``hvp``, ``vhp``), as torch's.

As ``torch/autograd/functional.py``: the function runs on fresh leaves (``inputs`` keep their ``.grad``), answers do
not require grad unless ``create_graph=True`` and come as one Value or a tuple per input and per output that was a
tuple (a list is torch's TypeError); with ``strict=True`` an output independent of an input is torch's error.
"""

from __future__ import annotations

from functools import reduce
from operator import add, mul
from typing import Any, Callable

from micrograph import ops
from micrograph.engine import grad
from micrograph.grad_mode import enable_grad
from micrograph.value import Value, record

Func = Callable[..., Any]
_OUTPUTS = "outputs of the user-provided function"  # what torch's errors call them
_INPUT_IS = "the input to the user-provided function is"  # jvp/vhp/hvp: v may be None for one input only

_INDEPENDENT = "Output {i} of the user-provided function is independent of input {j}. This is not allowed in strict mode."
_NO_GRAD_OUTPUT = ("Output {i} of the user-provided function does not require gradients. The outputs must be computed "
                   "in a differentiable manner from the input when running in strict mode.")
_JACOBIAN_INDEPENDENT = ("While computing the hessian, found that the jacobian of the user-provided function with "
                         "respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                         "should ensure that your function is twice differentiable and that the jacobian depends on "
                         "the inputs (this would be violated by a linear function for example).")


def _as_tuple(x: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Value, ...]]:
    """torch's ``_as_tuple``: (was it a tuple, the Values); anything else is its TypeError."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    for i, item in enumerate(items):
        if not isinstance(item, Value):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"{where} has type {type(item)}.")
    return is_tuple, items


def _fresh(inputs: tuple[Value, ...], create_graph: bool) -> tuple[Value, ...]:
    """Leaves for the function to run on: a view that keeps the graph under create_graph, else a detached copy."""
    return tuple(record(ops.ViewBackward0, v) if create_graph and v.requires_grad else v.detach().requires_grad_(True)
                 for v in inputs)


def _finish(values: Any, create_graph: bool) -> Any:
    """Results do not require grad unless create_graph (then they are views, as torch's reshaped ones)."""
    if isinstance(values, tuple):
        return tuple(_finish(v, create_graph) for v in values)
    if create_graph and values.requires_grad:
        return record(ops.ViewBackward0, values)
    return values.detach()


def _check_outputs(outputs: tuple[Value, ...], strict: bool) -> None:
    for i, out in enumerate(outputs if strict else ()):
        if not out.requires_grad:
            raise RuntimeError(_NO_GRAD_OUTPUT.format(i=i))


def _single_output(out: Any, strict: bool, name: str) -> Value:
    """hessian, vhp and hvp take a function returning one Value."""
    is_tuple, outs = _as_tuple(out, _OUTPUTS, name)
    _check_outputs(outs, strict)
    if is_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    return out


def _check_jacobian(jac: tuple[Value, ...]) -> None:
    """Strict mode: a first derivative that does not depend on the inputs (a linear function) is torch's error."""
    for i, j in enumerate(jac):
        if not j.requires_grad:
            raise RuntimeError(_JACOBIAN_INDEPENDENT.format(i=i))


def _grads(outputs: tuple[Value, ...], inputs: tuple[Value, ...], grad_outputs: tuple[Any, ...] | None,
           create_graph: bool) -> tuple[Value | None, ...]:
    """torch's ``_autograd_grad``: outputs that need no grad are left out; unused inputs give None."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs or (None,) * len(outputs)) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gos = zip(*pairs)
    return grad(list(outs), list(inputs), list(gos), retain_graph=True, create_graph=create_graph, allow_unused=True)


def _shape(result: Any, is_outputs_tuple: bool, is_inputs_tuple: bool) -> Any:
    """torch's ``_tuple_postprocess``: unwrap the levels that were not tuples."""
    if not is_outputs_tuple:
        result = result[0]
    if not is_inputs_tuple:
        result = tuple(r[0] for r in result) if is_outputs_tuple else result[0]
    return result


def jacobian(func: Func, inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """d func(*inputs) / d inputs: entry [i][j] is d output_i / d input_j."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                             'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, '
                             'prefer to use "reverse-mode".')
    if strategy == "forward-mode" and create_graph:
        raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                  "`strategy=\"forward-mode\"` are not supported together (yet). Please either set "
                                  "`create_graph=False` or `strategy=\"reverse-mode\"`.")
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    with enable_grad():
        is_inputs_tuple, given = _as_tuple(inputs, "inputs", "jacobian")
        leaves = _fresh(given, create_graph)
        is_outputs_tuple, outputs = _as_tuple(func(*leaves), _OUTPUTS, "jacobian")
        _check_outputs(outputs, strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        rows = []
        for i, out in enumerate(outputs):
            row = _grads((out,), leaves, None, create_graph)
            for j, g in enumerate(row if strict else ()):
                if g is None:
                    raise RuntimeError(_INDEPENDENT.format(i=i, j=j))
            rows.append(tuple(Value(0.0) if g is None else g for g in row))
    return _shape(_finish(tuple(rows), create_graph), is_outputs_tuple, is_inputs_tuple)


def hessian(func: Func, inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The second derivatives of a function returning one Value: entry [i][j] is d² f / d input_i d input_j."""
    is_inputs_tuple, given = _as_tuple(inputs, "inputs", "hessian")

    def jac_func(*args: Value) -> Any:
        jac = jacobian(lambda *a: _single_output(func(*a), strict, "hessian"), args, create_graph=True)
        if strict:
            _check_jacobian(jac)
        return jac

    result = jacobian(jac_func, given, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _shape(result, is_inputs_tuple, is_inputs_tuple)


def vjp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(*inputs), v · J): the outputs, and the gradient of ``sum(v_i * output_i)`` for each input."""
    with enable_grad():
        is_inputs_tuple, given = _as_tuple(inputs, "inputs", "vjp")
        leaves = _fresh(given, create_graph)
        is_outputs_tuple, outputs = _as_tuple(func(*leaves), _OUTPUTS, "vjp")
        _check_outputs(outputs, strict)
        vs = _vector(v, outputs, is_outputs_tuple, "vjp")
        result = _fill_in_zeros(_grads(outputs, leaves, vs, create_graph), strict, "output")
    outs = _finish_outputs(outputs, create_graph)
    return _unwrap(outs, is_outputs_tuple), _unwrap(_finish(result, create_graph), is_inputs_tuple)


def _fill_in_zeros(grads: tuple[Value | None, ...], strict: bool, what: str) -> tuple[Value, ...]:
    """torch's ``_fill_in_zeros``: an input no gradient reached gets 0, or strict mode's error."""
    for i, g in enumerate(grads if strict else ()):
        if g is None:
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. "
                               "This is not allowed in strict mode.")
    return tuple(Value(0.0) if g is None else g for g in grads)


def _vector(v: Any, values: tuple[Value, ...], is_tuple: bool, fn_name: str,
            whose: str = "the user-provided function returns") -> tuple[Any, ...] | None:
    """``v``, one per output (vjp) or per input (jvp, vhp, hvp); None only where there is one."""
    if v is None:
        if len(values) != 1:
            raise RuntimeError(f"The vector v can only be None if {whose} a single Tensor with a single element.")
        return None
    _, vs = _as_tuple(v, "v", fn_name)
    if len(vs) != len(values):
        if is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(values)} but got {len(vs)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    return tuple(x.detach() for x in vs)


def _finish_outputs(outputs: tuple[Value, ...], create_graph: bool) -> tuple[Value, ...]:
    return outputs if create_graph else tuple(o.detach() for o in outputs)


def _unwrap(values: tuple[Any, ...], is_tuple: bool) -> Any:
    return values if is_tuple else values[0]


def jvp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(*inputs), J · v); on scalars the product of each derivative with its v, summed per output."""
    is_inputs_tuple, given = _as_tuple(inputs, "inputs", "jvp")
    vs = _vector(v, given, is_inputs_tuple, "jvp", _INPUT_IS) or (Value(1.0),)
    jac = jacobian(func, tuple(given), create_graph=create_graph, strict=strict)
    with enable_grad():
        is_outputs_tuple, outputs = _as_tuple(func(*given), _OUTPUTS, "jvp")
    rows = jac if is_outputs_tuple else (jac,)
    products = tuple(reduce(add, map(mul, row, vs)) for row in rows)  # type: ignore[arg-type]
    return _unwrap(_finish_outputs(outputs, create_graph), is_outputs_tuple), _unwrap(products, is_outputs_tuple)


def vhp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(*inputs), v · H) for a function returning one Value."""
    return _second_order_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func: Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(*inputs), H · v): the Hessian is symmetric, so the same numbers as ``vhp``, under its own name."""
    return _second_order_product(func, inputs, v, create_graph, strict, "hvp")


def _second_order_product(func: Func, inputs: Any, v: Any, create_graph: bool, strict: bool,
                          name: str) -> tuple[Any, Any]:
    """torch's ``vhp``: the gradient, kept as a graph, backpropagated once more with ``v``."""
    with enable_grad():
        is_inputs_tuple, given = _as_tuple(inputs, "inputs", name)
        leaves = _fresh(given, create_graph)
        vs = _vector(v, given, is_inputs_tuple, name, _INPUT_IS)
        output = _single_output(func(*leaves), strict, name)
        jac = _grads((output,), leaves, None, True)
        if strict:
            _check_jacobian(_fill_in_zeros(jac, strict, "output"))  # an input no gradient reached: the error
        used = [(j, g) for j, g in zip(jac, vs or (None,) * len(jac)) if j is not None]
        second = _grads(tuple(j for j, _ in used), leaves, tuple(g for _, g in used), create_graph)
        result = _fill_in_zeros(second, strict, "jacobian")
    return output if create_graph else output.detach(), _unwrap(_finish(result, create_graph), is_inputs_tuple)
