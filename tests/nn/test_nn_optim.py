"""optim.SGD against torch.optim.SGD, step by step, and its zero_grad."""

from __future__ import annotations

from typing import Any

import pytest
from nn_expected import assert_close, build, copy_weights, load, weights

import micrograph as mg
from micrograph import nn, optim

SGD = load("sgd")


@pytest.mark.parametrize("run", SGD["runs"], ids=lambda r: ", ".join(f"{k}={v}" for k, v in r["options"].items()))
def test_steps_match_torch(run: dict[str, Any]) -> None:
    model = build(SGD["sizes"], SGD["activation"])
    copy_weights(model, SGD["layers"])
    params = list(model.parameters())
    versions = [p._version for p in params]
    opt = optim.SGD(model.parameters(), **run["options"])
    for i, step in enumerate(run["steps"]):
        opt.zero_grad()
        loss = nn.mse_loss(model(SGD["x"]), SGD["y"])
        loss.backward()
        opt.step()
        assert_close(loss.item(), step["loss"], f"step {i} loss")
        assert_close(weights(model), step["layers"], f"step {i} weights")
    assert list(model.parameters()) == params  # updated in place: the same leaves
    assert all(p.is_leaf and p.requires_grad for p in params)
    assert [p._version - v for p, v in zip(params, versions)] == [run["version_bumps"]] * len(params)


def test_the_catalogues_training_step() -> None:
    """torch-reference case 071: (w - 3)**2, lr 0.25: w goes 2.0, 2.5, 2.75; grads None after zero_grad."""
    w = mg.Value(1.0, requires_grad=True)
    opt = optim.SGD([w], lr=0.25)
    seen = []
    for _ in range(3):
        opt.zero_grad()
        assert w.grad is None
        ((w - 3) ** 2).backward()
        opt.step()
        seen.append(w.item())
    assert seen == [2.0, 2.5, 2.75] and w.is_leaf and w._version == 3
    opt.zero_grad(set_to_none=False)
    assert w.grad.item() == 0.0


def test_parameters_without_grad_are_skipped_and_lr_can_change() -> None:
    a, b = mg.Value(1.0, requires_grad=True), mg.Value(1.0, requires_grad=True)
    opt = optim.SGD([a, b], lr=0.5)
    (a * 2).backward()
    opt.step()
    assert (a.item(), b.item(), b._version) == (0.0, 1.0, 0)
    opt.param_groups[0]["lr"] = 0.25
    opt.step()
    assert a.item() == -0.5


def test_zero_grad_cuts_a_create_graph_grad_loose() -> None:
    w = mg.Value(2.0, requires_grad=True)
    (g,) = mg.grad(w * w, w, create_graph=True)
    w.grad = g
    optim.SGD([w]).zero_grad(set_to_none=False)
    assert w.grad is g and g.item() == 0.0 and g.grad_fn is None and not g.requires_grad


ERRORS = {
    "lr=-1": lambda w: optim.SGD([w], lr=-1),
    "momentum=-1": lambda w: optim.SGD([w], lr=0.1, momentum=-1),
    "weight_decay=-1": lambda w: optim.SGD([w], lr=0.1, weight_decay=-1),
    "nesterov without momentum": lambda w: optim.SGD([w], lr=0.1, nesterov=True),
    "nesterov with dampening": lambda w: optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
    "no parameters": lambda w: optim.SGD([], lr=0.1),
    "a number among the parameters": lambda w: optim.SGD([1.0], lr=0.1),
    "a non-leaf": lambda w: optim.SGD([w * 2], lr=0.1),
    "one Value, not a list": lambda w: optim.SGD(w, lr=0.1),
}


@pytest.mark.parametrize("case", list(SGD["errors"]))
def test_errors_are_torchs(case: str) -> None:
    with pytest.raises(Exception) as err:
        ERRORS[case](mg.Value(1.0, requires_grad=True))
    assert f"{type(err.value).__name__}: {err.value}" == SGD["errors"][case]
