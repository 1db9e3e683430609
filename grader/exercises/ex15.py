"""ex15 train: tests for the training loop (zero_grad, forward, loss, backward, step).

The probes build the models themselves (``manual_seed`` then ``nn.MLP``) on datasets that are
not in the exercise text, hand them to ``train``, and judge what happened to the *model*: they
compare its parameters with the grader's own reference loop (``_reference``) run from the same
seed, and compute the final loss themselves.  Training can amplify rounding differences after
many steps, so long runs are judged by a bound with a margin over the reference's loss, and
exact comparisons are made only over a few steps.  Returned losses are checked, never trusted.
"""

from __future__ import annotations

import math
import random
from typing import Any

import micrograph
from micrograph import nn, optim

from grader.spec import Exercise, Limits
from grader.spec.probe import error_text, num, show

# Training is the slowest probe of all the exercises (about 2 s alone, twice that on a busy
# machine) and runs last, with half of the time left: 20 s keeps a correct loop well inside it.
EXERCISE = Exercise("ex15", "Training a small MLP with SGD", module="ex15_train",
                    limits=Limits(time=20))

SIZES = [2, 8, 1]
MARGIN = 1.10  # the submission's final loss may exceed the reference's by 10%


def _dataset(seed: int, n: int) -> tuple[list[list[float]], list[list[float]]]:
    """n points in [-1, 1]^2 with a smooth nonlinear target, drawn from ``seed``."""
    rng = random.Random(seed)
    inputs = [[rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)] for _ in range(n)]
    targets = [[x0 * x1 + 0.5 * math.sin(2.0 * x0) - 0.25 * x1] for x0, x1 in inputs]
    return inputs, targets


HELD_OUT = [_dataset(5, 6), _dataset(17, 5)]


def _model(seed: int) -> nn.MLP:
    micrograph.manual_seed(seed)
    return nn.MLP(SIZES)


def _reference(model: nn.Module, inputs, targets, lr: float, steps: int) -> list[float]:
    """The grader's own loop: what a correct ``train`` does to a model."""
    optimizer = optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def _loss_now(model: nn.Module, inputs, targets) -> float:
    """The model's loss on the data, computed by the probe without recording a graph."""
    with micrograph.no_grad():
        return nn.mse_loss(model(inputs), targets).item()


def _close(a: float, b: float, rel: float = 1e-7) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


def _same_params(model: nn.Module, reference: nn.Module) -> bool:
    mine, ref = list(model.parameters()), list(reference.parameters())
    return len(mine) == len(ref) and all(_close(p.item(), q.item()) for p, q in zip(mine, ref))


def _train(sub, model: nn.Module, inputs, targets, lr: float, steps: int) -> tuple[Any, str | None]:
    """sub.train on the probe's model: the returned losses, or the error it raised."""
    try:
        return sub.train(model, inputs, targets, lr, steps), None
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - a loop that fails is an observation here
        return None, error_text(exc)


def _after(sub, seed: int, data, lr: float, steps: int) -> dict[str, Any]:
    """Train the probe's model and the reference from the same seed; compare the parameters."""
    inputs, targets = data
    model, reference = _model(seed), _model(seed)
    _, error = _train(sub, model, inputs, targets, lr, steps)
    _reference(reference, inputs, targets, lr, steps)
    return {"error": error, "same_parameters": _same_params(model, reference)}


@EXERCISE.test(
    "make_model seeds and builds MLP(2, 8, 1)",
    points=1,
    public=True,
    feedback="Call micrograph.manual_seed(seed) first, then return nn.MLP([2, 8, 1]).",
    key_feedback={
        "layers": "the model is nn.MLP([2, 8, 1]): Linear(2, 8), Tanh, Linear(8, 1)",
        "parameters": "seed the generator with manual_seed(seed) before building the model, "
        "so that the same seed gives the same initial weights",
    },
)
def make_model(sub):
    models = [sub.make_model(seed) for seed in (3, 8)]
    return {
        "layers": [[type(m).__name__ for m in model.children()] for model in models],
        "parameters": [[num(p) for p in model.parameters()] for model in models],
    }


@EXERCISE.test(
    "train returns one loss per step",
    points=2,
    public=True,
    feedback="Append loss.item() once per step, the loss computed in that step before its update.",
    key_feedback={
        "floats": "record each loss as a float with loss.item(), not the Value (that keeps its graph)",
        "count": "one loss per step: steps numbers",
        "first_is_initial": "the first loss is the untrained model's: compute it before the "
        "first update",
        "match_reference": "the losses must be those of plain SGD on the whole batch: "
        "zero_grad, model(inputs), nn.mse_loss, backward, step",
    },
)
def losses_recorded(sub):
    out: dict[str, list] = {"floats": [], "count": [], "first_is_initial": [], "match_reference": []}
    for seed, (inputs, targets), lr, steps in ((2, HELD_OUT[0], 0.1, 5), (6, HELD_OUT[1], 0.05, 3)):
        model = _model(seed)
        initial = _loss_now(model, inputs, targets)
        losses, error = _train(sub, model, inputs, targets, lr, steps)
        if error is not None or type(losses) is not list:
            for key in out:
                out[key].append(error or f"not a list: {type(losses).__name__}")
            continue
        expected = _reference(_model(seed), inputs, targets, lr, steps)
        numbers = [num(x) for x in losses]  # a Value counts here: "floats" says what is wrong
        numeric = all(type(x) is float for x in numbers)
        out["floats"].append(all(type(x) is float for x in losses))
        out["count"].append(len(losses) == steps)
        out["first_is_initial"].append(numeric and bool(numbers) and _close(numbers[0], initial))
        out["match_reference"].append(
            numeric and len(numbers) == steps and all(_close(a, b) for a, b in zip(numbers, expected))
        )
    return out


@EXERCISE.test(
    "one step is one SGD update",
    points=2,
    feedback="One step must change every parameter p by -lr * p.grad, with the gradient of "
    "nn.mse_loss(model(inputs), targets) over the whole batch: use optim.SGD(model.parameters(), "
    "lr=lr) on the model you are given.",
)
def one_step(sub):
    return [_after(sub, seed, data, lr, 1) for seed, data, lr in ((4, HELD_OUT[0], 0.1), (9, HELD_OUT[1], 0.3))]


@EXERCISE.test(
    "gradients are cleared every step",
    points=2,
    feedback="Call optimizer.zero_grad() at every step: backward adds into .grad, so without it "
    "each update follows the sum of all the gradients so far.",
)
def zeroed(sub):
    return [_after(sub, seed, data, lr, 4) for seed, data, lr in ((4, HELD_OUT[0], 0.1), (12, HELD_OUT[1], 0.2))]


@EXERCISE.test(
    "parameters stay the model's leaves",
    points=1,
    feedback="Update the parameters in place (optimizer.step(), under no_grad): each stays the "
    "same leaf that requires grad, and train leaves no graph behind.",
)
def leaves_kept(sub):
    inputs, targets = HELD_OUT[0]
    model = _model(13)
    before = list(model.parameters())
    _, error = _train(sub, model, inputs, targets, 0.1, 3)
    after = list(model.parameters())
    return {
        "error": error,
        "same_objects": len(before) == len(after) and all(p is q for p, q in zip(before, after)),
        "leaves": [bool(p.is_leaf and p.requires_grad and p.grad_fn is None) for p in after],
    }


@EXERCISE.test(
    "the loss falls on held-out data",
    points=3,
    feedback="Train the model you are given for all the steps: its loss on the data, computed "
    "afterwards, must come close to what plain SGD reaches from the same seed.",
)
def loss_falls(sub):
    out = []
    for seed, (inputs, targets), lr, steps in ((21, HELD_OUT[0], 0.2, 100), (34, HELD_OUT[1], 0.2, 80)):
        model = _model(seed)
        initial = _loss_now(model, inputs, targets)
        _, error = _train(sub, model, inputs, targets, lr, steps)
        reference = _model(seed)
        _reference(reference, inputs, targets, lr, steps)
        final, bound = _loss_now(model, inputs, targets), MARGIN * _loss_now(reference, inputs, targets)
        out.append({"error": error, "fell": final < initial, "below_bound": final <= bound})
    return out


@EXERCISE.diagram
def draw(sub):
    # One hidden neuron of the trained model: tanh(b0 + x0 * w00 + x1 * w01).
    model = sub.make_model(0)
    sub.train(model, *HELD_OUT[0], 0.2, 10)
    layer = model[0]
    x = [micrograph.Value(0.5), micrograph.Value(-1.0)]
    h = layer(x)[0].tanh()  # the first of the layer's 8 units; the other 7 are not drawn
    names = {"x0": x[0], "x1": x[1], "w00": layer.weight[0][0], "w01": layer.weight[0][1],
             "b0": layer.bias[0], "h": h}
    show([h], names)
    model.zero_grad()  # the drawing shows this neuron's gradients, not the last step's
    h.backward()
    return [h], names
