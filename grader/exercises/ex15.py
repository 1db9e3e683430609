"""ex15 train: tests for the training loop (zero_grad, forward, loss, backward, step).

The probes build the models themselves (``grader.spec.models``: ``manual_seed`` then
``nn.MLP``) on datasets that are not in the exercise text, hand them to ``train``, and observe
what the loop did to the engine and to the *model*, not only the losses it returns: for each
backward pass, whether the parameters' ``.grad`` were cleared before it, whether it was a
backward (``grad()`` writes no ``.grad``), whether it reached every parameter and whether it
kept its graph; how many passes ran; whether each optimizer.step() of a short loop found a
gradient to apply (``grader.spec.stepped``); each parameter afterwards (its number, whether it
is still the same leaf object, changed in place once per step: its version counter); the
losses as floats; the model's loss after training, computed by the probe.  A model that comes
with gradients in its ``.grad`` is trained too: the statement's loop clears them at the start
of the first step.  The reference is the solution's own run on the same inputs, compared in
the parent: nothing is trained twice here.  Steps 0 and 1, the boundaries of "one loss per
step", are probed.  An error raised by the student's loop is told as raised, with its line.
``train`` is called again on other models and on the first one once more, in the public test
too (``grader.spec.repeat``): a loss list or a learning rate kept between calls shows.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math
import random
from typing import Any

import micrograph
from micrograph import Value, nn, observe
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise, Limits, caller_grads, models
from grader.spec.earlier import marked, state
from grader.spec.given_untracked import told_if_module_untracked
from grader.spec.graph_again import told_if_graph_again
from grader.spec.facts import CONTEXT, FOLLOWS_CALLS, LABEL, Check
from grader.spec.freed import MOST_MADE, at_a_freed_id
from grader.spec.held import held
from grader.spec.probe import by_key, num, show, type_name
from grader.spec.provenance import check, same_object, value_of, watching
from grader.spec.repeat import calls_apart
from grader.spec.stepped import (Run, cleared_first, close, count, each_step, first_loss, first_number, from_the_loss,
                                 last_loss, losses_of, none_left, on_fitted_data, on_one_row, not_a_list, one_row,
                                 replayed, step_size, steps_scaled, steps_seen, stepped, unhooked)

# Training is the slowest probe of all the exercises and runs last, with half of the time
# left: 20 s keeps a correct loop well inside it on a busy machine.
EXERCISE = Exercise("ex15", "Training a small MLP with SGD", module="ex15_train",
                    limits=Limits(time=20),
                    drawn=N_("{path}: not a graph your code built (the backward of each step of train frees its "
                             "graph), but the first unit of the first layer of the model your make_model returned, "
                             "after your train trained it, applied by the grader to an input of its own, with the "
                             "gradients of that unit's output"))

Data = tuple[list[list[float]], list[list[float]]]  # (inputs, targets): rows of numbers


def _dataset(seed: int, n: int, scale: float = 1.0, kept: bool = True) -> Data:
    """n points in [-1, 1]^2 with a smooth nonlinear target times ``scale``, drawn from ``seed`` (a large scale
    gives gradients above one, which a clamping hook changes); ``kept`` alive (``grader.spec.held``): rows kept by
    ``id(inputs)`` meet a freed list's id only in ``_rows_at_a_freed_id``, which frees its own (``kept`` false)."""
    rng = random.Random(seed)
    inputs = [[rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)] for _ in range(n)]
    targets = [[scale * (x0 * x1 + 0.5 * math.sin(2.0 * x0) - 0.25 * x1)] for x0, x1 in inputs]
    held(*((inputs, targets) if kept else ()))
    return inputs, targets


def _data() -> Data:
    """The public tests' data (hidden tests draw theirs in their own bodies, which a student release does not
    ship), new lists at every call: a train that changes the lists it is given is told by the call that changed
    them, and by the same lists given again (``calls_apart``), not by every later call."""
    return _dataset(5, 6)


MAKE_FEEDBACK = "Call micrograph.manual_seed(seed) first, then return nn.MLP([2, 8, 1])."
MAKE_KEYS = {
    "layers": "the model is nn.MLP([2, 8, 1]): Linear(2, 8), Tanh, Linear(8, 1)",
    "parameters": "seed the generator with micrograph.manual_seed(seed) before building the "
    "model: the same seed then gives the same initial weights",
}


@EXERCISE.test("make_model seeds and builds MLP(2, 8, 1)", points=1, public=True,
               feedback=MAKE_FEEDBACK, key_feedback=MAKE_KEYS)
def make_model(sub):
    built = [models.built(sub, seed) for seed in (3, 8)]
    return {**by_key(built), "seeds": models.seeds_apart(built), "apart": _built_apart(sub, 3, 8)}


@EXERCISE.test("make_model on other seeds", points=1, feedback=MAKE_FEEDBACK,
               key_feedback=MAKE_KEYS)
def make_model_hidden(sub):
    built = [models.built(sub, seed) for seed in (0, 21, 55)]
    return {**by_key(built), "seeds": models.seeds_apart(built), "apart": _built_apart(sub, 21, 0)}


def _built_apart(sub, first: int, second: int) -> list[dict[str, Any]]:
    """make_model on one seed, another, then the first again, and as a fresh import's first call
    (``calls_apart``): a model built from what an earlier call left (the generator seeded once,
    a model kept) shows as state, not only as other weights."""
    return calls_apart(sub, lambda m, seed: m.make_model(seed), models.weights, first, second, "make_model")


def _losses(losses: object) -> list[dict[str, Any]] | dict[str, Any]:
    if type(losses) is not list:
        return not_a_list(losses)
    return [value_of(x, f"losses[{k}]") for k, x in enumerate(losses)]


def _trained(sub, seed: int, data: Data, lr: float, steps: int, kept: bool = False,
             steps_watched: bool = False) -> dict[str, Any]:
    """train on the probe's model: what the loop did (passes, each pass's parameters), what it
    returned, and the model afterwards.  Whether a pass kept its graph counts with ``kept``
    (the one-step tests), and is only told elsewhere: it wastes memory, not the training.
    ``steps_watched`` (a short loop: the profile hook sees every call) watches what each
    optimizer.step() found."""
    inputs, targets = data
    run = Run(seed, inputs, targets, lr, steps)
    model = models.model(seed)
    before = models.parameters(model, "the probe")
    start = [p.item() for p in before]
    loss_before = nn.mse_loss(model(inputs), targets)
    first = loss_before.item()  # the loss the first step computes, and its gradients (no .grad written)
    rows = [nn.mse_loss(model([x]), [t]).item() for x, t in zip(inputs, targets)]  # each row's loss alone
    gradients = [g.item() for g in micrograph.grad(loss_before, before)] if steps == 1 else []
    earlier, passes = marked(models.earlier(model)), observe.passes()
    with watching(sub, "train", grad_mode=None, retain_graph=kept, leaves=before) as call, \
            (steps_seen(call, before) if steps_watched else contextlib.nullcontext([])) as seen, \
            told_if_graph_again(call, "train"), \
            told_if_module_untracked(lambda: models.model(seed),
                                     lambda again: sub.train(again, inputs, targets, lr, steps),
                                     call.filename, "train", "model"):
        losses = sub.train(model, inputs, targets, lr, steps)
    earlier_kept = check(Check.EARLIER_KEPT, state(models.earlier(model)) == earlier, "train")
    after = models.parameters(model, "the probe")
    with micrograph.no_grad():
        loss_after = nn.mse_loss(model(inputs), targets)
    return {
        "losses": _losses(losses), "last_loss": last_loss(losses, first, loss_after.item()),
        "first_loss": first_loss(losses, first, loss_after.item(), rows),
        "count": count(losses, steps, call.started),
        "moved": check(Check.LOSSES_MOVE, not (type(losses) is list and len(losses) > 1
                                               and len({repr(num(x)) for x in losses}) == 1), "train"),
        "call": call.fact, "earlier": earlier_kept,
        "hooked": unhooked(before, range(passes + 1, observe.passes() + 1), "train"),
        "stepped": stepped(seen, "train"), "each_step": each_step(seen, after, lr, "train") if steps_watched
        else check(Check.STEP_BY_GRAD, True, "train"),
        "same_objects": [same_object(p, q, models.PARAMETER, "p before train()")
                         for p, q in zip(after, before)] + [len(after) == len(before)],
        "parameters": [_parameter(p, was) for p, was in zip(after, start)],
        "from_loss": from_the_loss(call, model([inputs[0]])[0][0].grad_fn.name(), "train"),
        "left": none_left(start, after, [len(models.parameters(nn.Sequential(layer), "the probe"))
                                         for layer in model.children()]),
        "step": on_one_row(run, after, one_row(first_number(losses), rows), _replayed)
        or (step_size(start, gradients, after, lr, first_number(losses) / first) if steps == 1
            else steps_scaled(run, after, first_number(losses) / first, functools.partial(_replayed, run),
                              functools.partial(_lr_ignored, sub, run))),
        "loss_after": value_of(loss_after, "mse_loss(model(inputs), targets) after train()"),
    }


def _parameter(p: object, was: float, label: str = models.PARAMETER) -> dict[str, Any]:
    """A parameter after train(). A step through ``.data`` (``p.data.sub_(lr * p.grad)``, the
    documents' way to change a leaf's number) changes it in place, the same leaf, as the
    statement asks, but moves no version counter, in PyTorch too: a number changed at version 0
    is such a step, and its count is then context (the number is judged)."""
    fact = value_of(p, label)
    if fact.get("version") == 0 and fact.get("data") != was:
        fact[CONTEXT + "version"] = fact.pop("version")
    return fact


def _replayed(run: Run, scale: float) -> list[float]:
    """The parameters the statement's loop leaves (``stepped.replayed``) on a new model of the
    run's seed, not one of ``models.MADE``: no call of train was given it."""
    micrograph.manual_seed(run.seed)
    return [p.item() for p in models.parameters(replayed(nn.MLP(models.SIZES), run, scale), "the probe")]


def _lr_ignored(sub, run: Run) -> bool:
    """train given one step on a new model of the run's seed, data and lr: whether it moved every
    parameter by one other multiple of its .grad than lr, each .grad the statement's gradient
    (``step_size``'s ``~lr_other``)."""
    model = models.model(run.seed)
    before = models.parameters(model, "the probe")
    start, loss = [p.item() for p in before], nn.mse_loss(model(run.inputs), run.targets)
    gradients = [g.item() for g in micrograph.grad(loss, before)]
    try:
        losses = sub.train(model, run.inputs, run.targets, run.lr, 1)
    except Exception:  # noqa: BLE001 - the one-step tests tell a call that raises
        return False
    after = models.parameters(model, "the probe")
    return step_size(start, gradients, after, run.lr, first_number(losses) / loss.item())[CONTEXT + "lr_other"]


def _keys(runs: list[dict[str, Any]], *keys: str) -> dict[str, list[Any]]:
    """The observations of several runs, one list per key, keeping only ``keys``."""
    return by_key([{key: run[key] for key in keys} for run in runs])


TRAIN_FEEDBACK = ("Each step: optimizer.zero_grad(), prediction = model(inputs), loss = "
                  "nn.mse_loss(prediction, targets), loss.backward(), optimizer.step(); record "
                  "loss.item().")
TRAIN_KEYS = {
    "losses": "each loss returned is loss.item() of the loss computed in that step, before its update",
    "call": "one loss.backward() per step, from the loss of the whole batch computed with the "
    "model given, after clearing the gradients of the step before; it frees the step's graph "
    "(no retain_graph)",
    "parameters": "every parameter of the model given changes by -lr * p.grad once per step, in "
    "place and under no_grad (optimizer.step() does this)",
    "same_objects": "update the parameters in place: each stays the model's own leaf object",
    "loss_after": "train the model you are given for all the steps, with plain SGD on the whole batch",
    "held": "with steps=0 train leaves the model as it was, the .grad of its parameters included",
}


ODD_LR = 0.137  # no lr a loop writes in its code: one that does is told as not following lr, not as keeping one
LOSS_KEYS = ("losses", "first_loss", "last_loss", "count", "moved", "hooked", "left", "from_loss")  # the losses tests
NO_STEP = "train(model, inputs, targets, lr, 0)"  # the call of no step, named by its arguments


@EXERCISE.test("train returns one loss per step", points=2, public=True, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def losses_recorded(sub):
    runs = [_trained(sub, 2, _data(), ODD_LR, 3, steps_watched=True), _trained(sub, 6, _dataset(7, 3), 0.05, 0)]
    return {**_keys(runs, *LOSS_KEYS), "step": runs[0]["step"], "each_step": runs[0]["each_step"],
            "same_model": _train_on_one_model(sub),
            "no_step": {**runs[1]["call"], LABEL: NO_STEP},  # what a loop that runs once before its test did
            "apart": calls_apart(sub, lambda m, case: m.train(models.model(case[0]), *case[1], case[2], case[3]),
                                 _numbers, (4, _data(), 0.1, 1), (8, _dataset(5, 3), 0.15, 2), "train")}


@EXERCISE.test("losses on other data and step counts", points=1, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def losses_hidden(sub):
    runs = [_trained(sub, 7, _dataset(29, 4), 0.3, 4, steps_watched=True), _trained(sub, 12, _dataset(17, 5), 0.2, 1)]
    each = all(run["count"].get("holds") for run in runs)  # an early stop is told as such only where it stops alone
    return {**_keys(runs, *LOSS_KEYS), "step": runs[0]["step"], "each_step": runs[0]["each_step"],
            "converged": on_fitted_data(
                lambda model, inputs, targets, lr: sub.train(model, inputs, targets, lr, 5), lambda: models.model(14),
                _dataset(43, 4)[0], 5, each),
            "apart": calls_apart(sub, lambda m, case: m.train(models.model(case[0]), *case[1], case[2], case[3]),
                                 _numbers, (4, _dataset(3, 4), 0.1, 2), (8, _dataset(5, 3), 0.15, 1),
                                 "train"), "freed_id": _at_a_freed_id(sub),
            "rows_at_freed_id": _rows_at_a_freed_id(sub)}


def _at_a_freed_id(sub) -> list[dict[str, Any]]:
    """train on a new model at the id of an earlier one trained with the same lr, steps and data, let go of (its
    parameters kept): a train keeping its optimizer or losses by id(model) steps the freed model's, or none."""
    earlier: list[Any] = []

    def make() -> nn.MLP:
        micrograph.manual_seed(16)
        return nn.MLP(models.SIZES)

    def trained(model: nn.MLP) -> None:
        sub.train(model, *_dataset(41, 4), 0.1, 1)  # new lists: a call that changes them leaves the next its own
        earlier.extend(model.parameters())
    model = at_a_freed_id(make, trained)
    before, start = marked(earlier), [p.item() for p in models.parameters(model, "the probe")]
    sub.train(model, *_dataset(41, 4), 0.1, 1)
    return [check(Check.EARLIER_KEPT, state(earlier) == before, "train"),
            *({**_parameter(p, was, models.AT_A_FREED_ID), FOLLOWS_CALLS: True}
              for p, was in zip(models.parameters(model, "the probe"), start))]


def _rows_at_a_freed_id(sub) -> dict[str, Any]:
    """One step of train on a new model given a new inputs list put where an earlier call's was,
    with its id, once that list was let go of (other rows): the INPUTS_ANEW fact, which fails
    only where the loss train returned is that of the earlier call's rows (a batch kept by
    ``id(inputs)`` between calls)."""
    earlier: dict[int, list[list[float]]] = {}
    drawn = iter(range(60, 60 + MOST_MADE))

    def trained(inputs: list[list[float]]) -> None:
        earlier[id(inputs)] = [row[:] for row in inputs]
        sub.train(models.model(16), inputs, _dataset(0, len(inputs))[1], 0.1, 1)
    inputs = at_a_freed_id(lambda: _dataset(next(drawn), 4, kept=False)[0], trained)
    targets, model = _dataset(0, 4)[1], models.model(17)
    kept = earlier.get(id(inputs))
    stale = None if kept is None else nn.mse_loss(model(kept), targets).item()
    right = nn.mse_loss(model(inputs), targets).item()
    first = first_number(sub.train(model, inputs, targets, 0.1, 1))
    return check(Check.INPUTS_ANEW, stale is None or not close(first, stale) or close(first, right), "train")


def _train_on_one_model(sub) -> dict[str, Any]:
    """train on a model, then on it again with another lr (a notebook that trains on): the ANEW_ON_OBJECT
    fact of the second call, which fails where it returned the first call's list again (the very list, or its
    numbers, not none, the first not the loss of the model the first call left: a loop that never changes the
    model computes them afresh), or the statement's losses of the first call's lr (``~first_lr``: an optimizer kept)."""
    model = models.model(23)
    first = sub.train(model, *_data(), ODD_LR, 2)
    seen, copied = _numbers(first), copy.deepcopy(model)
    now = losses_of(copy.deepcopy(copied), _data(), 0.3, 1)[0]  # the statement's second call's first loss
    second = sub.train(model, *_data(), 0.3, 2)
    again = second is first or (type(seen) is list and seen != [] and _numbers(second) == seen
                                and not close(first_number(second), now))
    first_lr = not again and _numbers(second) == losses_of(copy.deepcopy(copied), _data(), ODD_LR, 2) != losses_of(
        copied, _data(), 0.3, 2)
    return {**check(Check.ANEW_ON_OBJECT, not (again or first_lr), "train"), CONTEXT + "object": "model",
            CONTEXT + "first_lr": first_lr}


def _numbers(losses: object) -> list[Any] | str:
    """The losses train returned, as numbers."""
    return [num(x) for x in losses] if type(losses) is list else f"not a list: {type_name(losses)}"


STEP_KEYS = ("call", "earlier", "hooked", "stepped", "same_objects", "step", "parameters", "left", "from_loss")


@EXERCISE.test("one step is one SGD update", points=2, public=True, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def one_step(sub):
    return _keys([_trained(sub, 4, _data(), 0.1, 1, kept=True, steps_watched=True)], *STEP_KEYS)


@EXERCISE.test("one step on other data", points=2, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def one_step_hidden(sub):
    runs = [_trained(sub, 9, _dataset(17, 5), 0.3, 1, kept=True, steps_watched=True),
            _trained(sub, 15, _dataset(29, 4), 0.05, 1, kept=True)]
    return _keys(runs, *STEP_KEYS)


def _came_with(sub, seed: int, data: Data, lr: float, steps: int) -> dict[str, Any]:
    """train given a model whose parameters already hold gradients (one backward of its loss on
    other data): whether its first backward pass found them cleared, as the statement's loop
    clears at the start of every step (``stepped.cleared_first``)."""
    model = models.model(seed)
    parameters = models.parameters(model, "the probe")
    inputs, targets = _dataset(seed, 3)
    nn.mse_loss(model(inputs), targets).backward()
    with watching(sub, "train", grad_mode=None, leaves=parameters) as call:
        sub.train(model, *data, lr, steps)
    return cleared_first(call, parameters, "train")


@EXERCISE.test("gradients are cleared every step", points=2, public=True, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def zeroed(sub):
    return {**_keys([_trained(sub, 4, _data(), 0.1, 3, steps_watched=True)], "call", "earlier", "hooked", "stepped",
                    "each_step", "step", "parameters", "left"), "came_with": _came_with(sub, 10, _data(), 0.1, 2)}


@EXERCISE.test("gradients cleared over more steps", points=2, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def zeroed_hidden(sub):
    runs = [_trained(sub, 12, _dataset(17, 5), 0.2, 4), _trained(sub, 5, _dataset(29, 4), 0.1, 5),
            _trained(sub, 6, _dataset(31, 4, 8.0), 0.1, 3)]
    return {**_keys(runs, "call", "earlier", "hooked", "step", "parameters", "left"),
            "came_with": _came_with(sub, 19, _dataset(23, 4), 0.2, 3)}


@EXERCISE.test("zero steps leave the model as it was", points=1, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def no_step(sub):
    model = models.model(14)  # its parameters hold gradients the caller accumulated: no step leaves them
    return {**_keys([_trained(sub, 13, _dataset(29, 4), 0.1, 0)], *STEP_KEYS), "held": caller_grads.kept_through(
        "train(model, inputs, targets, lr, 0)", caller_grads.parameters_of(model), functools.partial(sub.train, model, *_dataset(29, 4), 0.1, 0))}


LONG_STEPS = (7, 6)
"""The steps of ``loss_falls``' two runs (the other tests' runs take at most 5)."""
DIAGRAM_STEPS = 3
"""The steps trained before the diagram draws a neuron: enough to show trained weights."""


@EXERCISE.test("the loss falls over longer runs", points=3, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def loss_falls(sub):
    # The longest runs of the exercise: the solution's loss falls under a sixth and under a third of
    # its first value.  Every step of training is one more forward and backward of each
    # submission's grading (ex15's probes were a third of them).
    return _keys([_trained(sub, 21, _data(), 0.2, LONG_STEPS[0]),
                  _trained(sub, 34, _dataset(17, 5), 0.2, LONG_STEPS[1])],
                 "call", "earlier", "hooked", "step", "parameters", "left", "loss_after")


@EXERCISE.diagram
def draw(sub):
    # One hidden neuron of the trained model: tanh(b0 + x0 * w00 + x1 * w01).
    model = sub.make_model(0)
    # A model that is none is told here; one make_model returns again, by the tests.
    models.RETURNED.new(models.first_parameter(models.parameters(model, "make_model")))
    models.MADE.append(model)  # drawn before the tests run: an optimizer this call keeps steps it later
    sub.train(model, *_data(), 0.2, DIAGRAM_STEPS)
    layer = model[0]
    x = [Value(0.5), Value(-1.0)]
    h = layer(x)[0].tanh()  # the first of the layer's 8 units; the other 7 are not drawn
    names = {"x0": x[0], "x1": x[1], "w00": layer.weight[0][0], "w01": layer.weight[0][1],
             "b0": layer.bias[0], "h": h}
    show([h], names)
    model.zero_grad()  # the drawing shows this neuron's gradients, not the last step's
    h.backward()
    return [h], names
