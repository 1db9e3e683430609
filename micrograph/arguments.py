"""The arguments of ``backward()`` and ``grad()``, checked by torch's rules and in torch's order.

A student's mistake here fails as in torch, with torch's text, or passes where torch lets it pass: ``create_graph=1``
is accepted (``flag`` reads a bool through ``__index__``, as torch's parser), ``retain_graph="yes"`` is a TypeError, a
bare float as a gradient is refused, ``inputs=[2.0]`` names the float. The engine calls these before it touches the
graph, so a refused call changes nothing. The outputs are ``(x,)`` for a tensor, else ``tuple(x)``, ``mm``'s nested
rows read as one matrix (its gradient nested rows of numbers); extra gradients are ignored (torch zips them with the
outputs), missing ones are an error.
"""

from __future__ import annotations

import warnings
from typing import Any, Mapping, Sequence

from micrograph.value import Value

OUTPUT_NOT_A_VALUE = "Expected output to be a torch.Tensor"  # torch's _make_grads, verbatim
ONLY_INPUTS_WARNING = ("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                       "gradient for other parts of the graph, please use torch.autograd.backward.")
GRAD_VARIABLES_WARNING = "`grad_variables` is deprecated. Use `grad_tensors` instead."
BATCHED_ZERO_DIM = ("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a Tensor "
                    "of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")


def roots(tensors: Any, grads: Any, retain_graph: Any, create_graph: Any,
          grad_variables: Any = None) -> tuple[list[Value], list[Any], bool, bool]:
    if isinstance(tensors, Value) and (grads is None or isinstance(grads, Value)) and grad_variables is None:
        outputs, given = [tensors], [grads]
    else:
        outputs = [tensors] if isinstance(tensors, Value) else nested_items(tuple(tensors))
        given = grads_for(tensors, outputs, with_grad_variables(grads, grad_variables))
    create_graph = create_graph if create_graph is False else flag(create_graph)
    return outputs, given, create_graph, create_graph if retain_graph is None else flag(retain_graph)


def grad_flags(only_inputs: Any, is_grads_batched: Any, allow_unused: Any, materialize_grads: Any) -> tuple[bool, bool]:
    """``grad()``'s flags: (allow_unused, materialize_grads), after torch's checks and warnings."""
    if not only_inputs:
        warnings.warn(ONLY_INPUTS_WARNING, FutureWarning, stacklevel=3)
    if is_grads_batched:
        raise ValueError(BATCHED_ZERO_DIM)
    materialize_grads = flag(materialize_grads)
    allow_unused = None if allow_unused is None else flag(allow_unused)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    return materialize_grads if allow_unused is None else allow_unused, materialize_grads


def flag(x: Any) -> bool:
    if isinstance(x, bool):
        return x
    if isinstance(x, Value):
        if isinstance(x.item(), (bool, int)):
            return bool(x.item())
        raise TypeError("only integer tensors of a single element can be converted to an index")
    if isinstance(x, int):
        return x != 0
    raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")


def inputs_of(inputs: Any, caller: str) -> list[Value]:
    """The ``inputs=`` of ``backward()``/``grad()``: a Value, a sequence, or a dict of Values
    (``dict(model.named_parameters())``); an empty one is refused."""
    if isinstance(inputs, Value):
        items: tuple[Any, ...] = (inputs,)
    elif type(inputs) is dict:
        items = tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{caller}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    else:
        items = tuple(inputs)
    if not items:
        raise RuntimeError(f"`inputs` argument to `{caller}()` cannot be empty.")
    return list(items)


def check_inputs(inputs: list[Any], needs_grad: bool = False) -> list[Value]:
    """torch's engine refuses anything but a tensor among the inputs (after the roots' checks);
    ``grad()`` also refuses one that does not require grad."""
    for item in inputs:
        if not isinstance(item, Value):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(item).__name__}")
        if needs_grad and not item.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    return inputs


def grads_for(given: Any, outputs: list[Any], grads: Any) -> list[Any]:
    """One gradient per output (Value or None), by torch's ``_tensor_or_tensors_to_tuple`` and ``_make_grads``."""
    if not all(isinstance(out, Value) for out in outputs):
        raise AssertionError(OUTPUT_NOT_A_VALUE)
    matrix = isinstance(given, (list, tuple)) and any(isinstance(item, (list, tuple)) for item in given)
    if grads is None:
        if matrix and len(outputs) > 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        return [None] * len(outputs)
    if matrix:  # one tensor: its gradient has its shape, as torch's validate_outputs checks
        if shape(grads) != shape(given):
            raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of torch.Size({shape(grads)}) and "
                               f"output[0] has a shape of torch.Size({shape(given)}).")
        return [g if g is None or isinstance(g, Value) else Value(g) for g in nested_items(grads)]
    items = (grads,) if isinstance(grads, Value) else tuple(grads)
    for g in items[: len(outputs)]:
        if g is not None and not isinstance(g, Value):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(items) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(items)} gradients")
    return list(items[: len(outputs)])


def shape(x: Any) -> list[int]:
    """The shape of nested rows, read along their first entries (``[]`` for a number or a Value)."""
    return [len(x), *shape(x[0] if x else None)] if isinstance(x, (list, tuple)) else []


def nested_items(x: Sequence[Any]) -> list[Any]:
    """The items of nested lists (the rows ``mm`` returns), in order."""
    return [item for row in x for item in (nested_items(row) if isinstance(row, (list, tuple)) else (row,))]


def with_grad_variables(grad_tensors: Any, old: Any) -> Any:
    """``backward``'s deprecated ``grad_variables``: warned about, used when ``grad_tensors`` is not given."""
    if old is None:
        return grad_tensors
    warnings.warn(GRAD_VARIABLES_WARNING, FutureWarning, stacklevel=3)
    if grad_tensors is not None:
        raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to `backward()`. "
                           "Please only use `grad_tensors`.")
    return old
