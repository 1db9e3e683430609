"""``torch.nn.functional``'s names that micrograph has, so that the tutorials' ``import torch.nn.functional as F``
lines run here: ``F.mse_loss(prediction, target)``, ``F.relu(x)``, ``F.sigmoid(x)``, ``F.tanh(x)``."""

from __future__ import annotations

from typing import Any

from micrograph import ops
from micrograph.arguments import nested_items
from micrograph.functional import mean, relu, sigmoid, sum, tanh  # noqa: A004 - torch's names
from micrograph.value import Value

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # torch's Reduction enum, as _saved_reduction shows it

Nested = Any  # a Value, a number, or (nested) lists of them

__all__ = ["mse_loss", "relu", "sigmoid", "tanh"]


def mse_loss(input: Nested, target: Nested, reduction: str = "mean") -> Any:  # noqa: A002 - torch's name
    """The squared differences: their mean (torch's default), sum (the tutorial's ``reduction='sum'``) or
    each (``'none'``).  The shapes must be equal: torch broadcasts a ``[2]`` target against ``[2, 1]``
    predictions with only a warning, the classic silent bug of a regression loop; here it is an error."""
    for x in (target, input):  # torch reads target.size() first: a bare number has none
        if isinstance(x, (int, float)):
            raise AttributeError(f"'{type(x).__name__}' object has no attribute 'size'")
    shape_in, shape_target = _shape(input, "input"), _shape(target, "target")
    if shape_in != shape_target:
        raise ValueError(f"mse_loss: input has shape {list(shape_in)} but target has shape {list(shape_target)}; "
                         "micrograph does not broadcast, give both the same shape")
    if reduction == "none" and shape_in:
        return [mse_loss(p, t, "none") for p, t in zip(input, target)]
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if isinstance(input, Value):  # one element (the target too): torch's one node
        return input.record_op(ops.MseLossBackward0, target, REDUCTIONS[reduction])
    squares = [(p - t) ** 2 for p, t in zip(nested_items([input]), nested_items([target]))]
    return mean(squares) if reduction == "mean" else sum(squares)


def _shape(x: Nested, what: str) -> tuple[int, ...]:
    if not isinstance(x, (list, tuple)):
        return ()
    shapes = {_shape(item, what) for item in x}
    if len(shapes) > 1:
        raise ValueError(f"mse_loss: {what} has rows of different lengths")
    return (len(x),) + (shapes.pop() if shapes else ())
