"""ex12 linear: tests for the documents' nn.Linear(3, 4) graph: the summed loss, the second
backward's error, and retain_graph=True doubling every parameter's gradient.

The probes make the nets themselves (``manual_seed`` then ``nn.Linear``), with seeds, sizes and
inputs not in the exercise text, and read the parameters' gradients from their own net, so a
submission is judged on what happened to the net, not only on what it returns.
"""

from __future__ import annotations

from typing import Any, Callable

import micrograph
from micrograph import nn

from grader.spec import Exercise
from grader.spec.probe import caught, grad, num, show, value

EXERCISE = Exercise("ex12", "nn.Linear: backward twice and retain_graph", module="ex12_linear")

# (seed, in_features, out_features, rows)
DOCUMENTS = [
    (3, 3, 4, [[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]),
    (11, 3, 4, [[2.0, 1.0, -0.5]]),
    (7, 3, 4, [[1.0, 0.0, 2.0], [-1.0, 3.0, 0.5], [0.25, 0.25, 4.0]]),
]
OTHER_SIZES = [
    (5, 2, 3, [[1.5, -2.0], [0.5, 4.0]]),
    (9, 4, 1, [[1.0, -1.0, 2.0, 0.5]]),
]


def _net(seed: int, n_in: int, n_out: int) -> nn.Linear:
    micrograph.manual_seed(seed)
    return nn.Linear(n_in, n_out)


def _param_grads(net: nn.Linear) -> list[Any]:
    """Every parameter's gradient, read by the probe from its own net."""
    return [grad(p) for p in net.parameters()]


def _list(xs: object, observe: Callable[[Any], Any]) -> list | str:
    if type(xs) not in (list, tuple):
        return f"not a list: {type(xs).__name__}"
    return [observe(item) for item in xs]


def _matrix(m: object, observe: Callable[[Any], Any]) -> list | str:
    return _list(m, lambda row: _list(row, observe))


def _twice(sub, seed: int, n_in: int, n_out: int, rows: list[list[float]]) -> dict[str, Any]:
    """grads_twice on a fresh net: what it returned, and the net's own gradients afterwards."""
    net = _net(seed, n_in, n_out)
    answer = sub.grads_twice(net, rows)
    if type(answer) is not tuple or len(answer) != 2:
        raise TypeError("grads_twice must return a pair (first gradients, second gradients)")
    return {"first": _list(answer[0], num), "second": _list(answer[1], num), "net": _param_grads(net)}


def _failed(sub, seed: int, n_in: int, n_out: int, rows: list[list[float]]) -> dict[str, Any]:
    """second_backward_error on a fresh net: the error, and the net's gradients afterwards."""
    net = _net(seed, n_in, n_out)
    return {"error": caught(sub.second_backward_error(net, rows)), "net": _param_grads(net)}


@EXERCISE.test(
    "forward gives input leaves, output rows, summed loss",
    points=2,
    public=True,
    feedback="Make the input rows of new leaves that require grad, output = net(input), and "
    "loss = micrograph.sum over every entry of output; no backward yet.",
    key_feedback={
        "input": "the input is the rows as new leaves Value(v, requires_grad=True), as the "
        "documents' requires_grad=True input",
        "output": "output is net(input): one row of out_features Values per input row",
        "loss": "loss is one Value, the sum of every entry of output (micrograph.sum of a flat list)",
    },
)
def forward_public(sub):
    out: dict[str, list] = {"input": [], "output": [], "loss": []}
    for seed, n_in, n_out, rows in DOCUMENTS[:2]:
        inputs, output, loss = sub.forward(_net(seed, n_in, n_out), rows)
        out["input"].append(_matrix(inputs, value))
        out["output"].append(_matrix(output, value))
        out["loss"].append(value(loss))
    return out


@EXERCISE.test(
    "a second backward raises",
    points=2,
    public=True,
    feedback="Call loss.backward() twice without retain_graph; catch the second call's "
    "RuntimeError with try / except RuntimeError as error, and return the error object.",
)
def second_raises(sub):
    return [_failed(sub, *case)["error"] for case in DOCUMENTS[:2]]


@EXERCISE.test(
    "a failed backward adds nothing",
    points=1,
    feedback="Backpropagate from the loss of the net you are given; the second call fails "
    "before it writes any gradient, so the parameters keep the first call's.",
)
def failed_adds_nothing(sub):
    return [_failed(sub, *case)["net"] for case in DOCUMENTS]


@EXERCISE.test(
    "with retain_graph=True, the gradients after each call",
    points=2,
    feedback="Call loss.backward(retain_graph=True), record [p.grad.item() for p in "
    "net.parameters()], call loss.backward() and record again.",
    key_feedback={
        "first": "after one backward, each parameter's .grad is d loss/d parameter, with the "
        "loss summed over every output entry of the rows given",
        "second": "the second backward works only if the first kept the graph "
        "(retain_graph=True), and it adds to .grad: every gradient doubles",
    },
)
def retained_returns(sub):
    results = [_twice(sub, *case) for case in DOCUMENTS]
    return {key: [r[key] for r in results] for key in ("first", "second")}


@EXERCISE.test(
    "every parameter's grad doubles",
    points=2,
    feedback="Both backward calls must reach every weight and bias of the net you are given: "
    "after them each parameter's .grad is twice one backward's.",
)
def net_doubled(sub):
    return [_twice(sub, *case)["net"] for case in DOCUMENTS]


@EXERCISE.test(
    "other layer sizes",
    points=2,
    feedback="Work for any nn.Linear and any number of rows: sum every entry of the output, "
    "and read the gradients of all of net.parameters().",
)
def other_sizes(sub):
    return [[_failed(sub, *case), _twice(sub, *case)] for case in OTHER_SIZES]


@EXERCISE.diagram
def draw(sub):
    inputs, output, loss = sub.forward(_net(3, 3, 4), [[0.5, -1.0, 2.0]])
    names = {f"x{k}": v for k, v in enumerate(inputs[0])}
    names["loss"] = loss
    show([loss], names)  # drawn as built if backward fails
    loss.backward()
    return [loss], names
