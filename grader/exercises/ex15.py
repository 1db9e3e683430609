"""ex15 train: tests for the training loop (zero_grad, forward, loss, backward, step).

Each test hands ``train`` models and datasets of the probe's own and observes what the loop did
to the engine and to the model (``grader.spec.trained``); the reference is the solution's own
run on the same inputs, compared in the parent: nothing is trained twice here.  Steps 0 and 1,
the boundaries of "one loss per step", are probed.  An error raised by the student's loop is
told as raised, with its line.  ``train`` is called again on other models and on the first one
once more, in the public test too (``grader.spec.repeat``): a loss list or a learning rate kept
between calls shows.
"""

from __future__ import annotations

import copy
import functools
import itertools
from typing import Any

import micrograph
from micrograph import Value, nn
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise, Limits, caller_grads, models
from grader.spec.earlier import marked, state
from grader.spec.facts import CONTEXT, FOLLOWS_CALLS, LABEL, Check
from grader.spec.freed import at_a_freed_id
from grader.spec.made_from import made_of
from grader.spec.mode_restored import called
from grader.spec.probe import by_key, num, show, type_name
from grader.spec.provenance import check
from grader.spec.repeat import calls_apart
from grader.spec.fitted import on_fitted_data
from grader.spec.stepped import close, first_number, losses_of
from grader.spec.trained import Data, came_with, dataset, keys, parameter, trained

# Training is the slowest probe of all the exercises and runs last, with half of the time
# left: 20 s keeps a correct loop well inside it on a busy machine.
EXERCISE = Exercise("ex15", "Training a small MLP with SGD", module="ex15_train",
                    limits=Limits(time=20),
                    drawn=N_("{path}: not a graph your code built (each step of train builds its graph and uses it "
                             "inside train), but the first unit of the first layer of the model your make_model returned, "
                             "after your train trained it, applied by the grader to an input of its own, with the "
                             "gradients of that unit's output"))


def _data() -> Data:
    """The public tests' data (hidden tests draw theirs in their own bodies, which a student release does not
    ship), new lists at every call: a train that changes the lists it is given is told by the call that changed
    them, and by the same lists given again (``calls_apart``), not by every later call."""
    return dataset(5, 6)


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
LOSS_KEYS = ("losses", "first_loss", "last_loss", "count", "moved", "hooked", "left", "from_loss",
             "body_ran", "given")  # the losses tests
NO_STEP = "train(model, inputs, targets, lr, 0)"  # the call of no step, named by its arguments


def _train(sub, *args: Any) -> Any:
    """The submission's train, grad mode on again after it: a loop that leaves it off is told by its own run's
    CALL fact (``trained``), not by an error of the probe's next pass through the engine."""
    return called("train", sub.train, *args)


@EXERCISE.test("train returns one loss per step", points=2, public=True, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def losses_recorded(sub):
    runs = [trained(sub, 2, _data(), ODD_LR, 3, steps_watched=True), trained(sub, 6, dataset(7, 3), 0.05, 0)]
    return {**keys(runs, *LOSS_KEYS), "step": runs[0]["step"], "each_step": runs[0]["each_step"],
            "same_model": _train_on_one_model(sub),
            "no_step": {**runs[1]["call"], LABEL: NO_STEP},  # what a loop that runs once before its test did
            "apart": calls_apart(sub, lambda m, case: _train(m, models.model(case[0]), *case[1], case[2], case[3]),
                                 _numbers, (4, _data(), 0.1, 1), (8, dataset(5, 3), 0.15, 2), "train")}


@EXERCISE.test("losses on other data and step counts", points=1, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def losses_hidden(sub):
    runs = [trained(sub, 7, dataset(29, 4), 0.3, 4, steps_watched=True), trained(sub, 12, dataset(17, 5), 0.2, 1)]
    each = all(run["count"].get("holds") for run in runs)  # an early stop is told as such only where it stops alone
    return {**keys(runs, *LOSS_KEYS), "step": runs[0]["step"], "each_step": runs[0]["each_step"],
            "converged": on_fitted_data(
                lambda model, inputs, targets, lr: _train(sub, model, inputs, targets, lr, 5), lambda: models.model(14),
                dataset(43, 4)[0], 5, each),
            "apart": calls_apart(sub, lambda m, case: _train(m, models.model(case[0]), *case[1], case[2], case[3]),
                                 _numbers, (4, dataset(3, 4), 0.1, 2), (8, dataset(5, 3), 0.15, 1),
                                 "train"), "freed_id": _at_a_freed_id(sub),
            "rows_at_freed_id": _rows_at_a_freed_id(sub)}


CANDIDATES = 16
"""Models, or lists of rows, made after each call of train in the search for one at a freed id
(``freed.at_a_freed_id``): making one costs far less than a call of train."""


def _at_a_freed_id(sub) -> list[dict[str, Any]]:
    """train on a new model at the id of an earlier one trained with the same lr, steps and data, let go of (its
    parameters kept): a train keeping its optimizer or losses by id(model) steps the freed model's, or none.  The
    EARLIER_KEPT fact (``~freed_id``), and the READ_ANEW fact (``~model``), which fails where an earlier call moved
    its model, and this one left both models' parameters as they were and returned the losses of the latest
    earlier call (an optimizer kept by the id computes the same first loss afresh, and is told by the earlier
    model it steps; a loop that moves no model returns the same losses for every model of one seed)."""
    earlier: list[Any] = []
    returned: list[Any] = [None, False]  # what the latest earlier call returned; whether any earlier call moved its model

    def make() -> nn.MLP:
        micrograph.manual_seed(16)
        return nn.MLP(models.SIZES)

    def handed(model: nn.MLP) -> None:
        was = [p.item() for p in models.parameters(model, "the probe")]
        returned[0] = _numbers(_train(sub, model, *dataset(41, 4), 0.1, 1))  # new lists: a call that changes them
        returned[1] = returned[1] or was != [p.item() for p in models.parameters(model, "the probe")]
        earlier.extend(model.parameters())
        for p in model.parameters():  # a .grad holding a graph (create_graph=True) keeps that graph alive: its blocks
            if p.grad is not None and p.grad.grad_fn is not None:  # then take the freed ids, hundreds of calls long;
                p.grad = None  # marked() gives every earlier parameter a .grad of its own before the check anyway
    model = at_a_freed_id(make, handed, candidates=CANDIDATES)
    before, start = marked(earlier), [p.item() for p in models.parameters(model, "the probe")]
    losses = _numbers(_train(sub, model, *dataset(41, 4), 0.1, 1))  # leaves the next its own
    unmoved = all(p.item() == was for p, was in zip(models.parameters(model, "the probe"), start))
    untouched = state(earlier) == before
    kept = returned[1] and untouched and unmoved and losses == returned[0]
    return [{**check(Check.EARLIER_KEPT, untouched, "train"), CONTEXT + "freed_id": True},
            {**check(Check.READ_ANEW, not kept, "train"), CONTEXT + "model": True},
            *({**parameter(p, was, models.AT_A_FREED_ID), FOLLOWS_CALLS: True}
              for p, was in zip(models.parameters(model, "the probe"), start))]


def _rows_at_a_freed_id(sub) -> dict[str, Any]:
    """One step of train on a new model given a new inputs list put where an earlier call's was,
    with its id, once that list was let go of (other rows): the INPUTS_ANEW fact, which fails
    only where the loss train returned is that of the earlier call's rows (a batch kept by
    ``id(inputs)`` between calls)."""
    earlier: dict[int, list[list[float]]] = {}
    drawn = itertools.count(60)

    def handed(inputs: list[list[float]]) -> None:
        earlier[id(inputs)] = [row[:] for row in inputs]
        _train(sub, models.model(16), inputs, dataset(0, len(inputs))[1], 0.1, 1)
    inputs = at_a_freed_id(lambda: dataset(next(drawn), 4, kept=False)[0], handed, candidates=CANDIDATES)
    targets, model = dataset(0, 4)[1], models.model(17)
    kept = earlier.get(id(inputs))
    stale = None if kept is None else nn.mse_loss(model(kept), targets).item()
    right = nn.mse_loss(model(inputs), targets).item()
    first = first_number(_train(sub, model, inputs, targets, 0.1, 1))
    return check(Check.INPUTS_ANEW, stale is None or not close(first, stale) or close(first, right), "train")


def _train_on_one_model(sub) -> dict[str, Any]:
    """train on a model, then on it again with another lr (a notebook that trains on): the ANEW_ON_OBJECT
    fact of the second call, which fails where it returned the first call's list again (the very list, or its
    numbers, not none, the first not the loss of the model the first call left: a loop that never changes the
    model computes them afresh), or the statement's losses of the first call's lr (``~first_lr``: an optimizer kept).
    A third call, with the second's lr and steps, returning the very floats the second returned fails it too."""
    model = models.model(23)
    first = _train(sub, model, *_data(), ODD_LR, 2)
    seen, copied = _numbers(first), copy.deepcopy(model)
    now = losses_of(copy.deepcopy(copied), _data(), 0.3, 1)[0]  # the statement's second call's first loss
    second = _train(sub, model, *_data(), 0.3, 2)
    third = _train(sub, model, *_data(), 0.3, 2)  # on again, as the second: a list kept by model, lr and steps
    again = second is first or (type(seen) is list and seen != [] and _numbers(second) == seen  # numbers, not types
                                and all(type(x) is float for x in seen) and not close(first_number(second), now)) \
        or type(second) is list and type(third) is list and any(type(a) is float and a is b for a, b in zip(second, third))
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
    return keys([trained(sub, 4, _data(), 0.1, 1, kept=True, steps_watched=True)], *STEP_KEYS)


@EXERCISE.test("one step on other data", points=2, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def one_step_hidden(sub):
    runs = [trained(sub, 9, dataset(17, 5), 0.3, 1, kept=True, steps_watched=True),
            trained(sub, 15, dataset(29, 4), 0.05, 1, kept=True)]
    return keys(runs, *STEP_KEYS)


@EXERCISE.test("gradients are cleared every step", points=2, public=True, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def zeroed(sub):
    return {**keys([trained(sub, 4, _data(), 0.1, 3, steps_watched=True)], "call", "earlier", "hooked", "stepped",
                    "each_step", "step", "parameters", "left"), "came_with": came_with(sub, 10, _data(), 0.1, 2)}


@EXERCISE.test("gradients cleared over more steps", points=2, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def zeroed_hidden(sub):
    runs = [trained(sub, 12, dataset(17, 5), 0.2, 4), trained(sub, 5, dataset(29, 4), 0.1, 5),
            trained(sub, 6, dataset(31, 4, 8.0), 0.1, 3)]
    return {**keys(runs, "call", "earlier", "hooked", "stepped", "step", "parameters", "left"),
            "came_with": came_with(sub, 19, dataset(23, 4), 0.2, 3)}


@EXERCISE.test("zero steps leave the model as it was", points=1, feedback=TRAIN_FEEDBACK,
               key_feedback=TRAIN_KEYS)
def no_step(sub):
    model = models.model(14)  # its parameters hold gradients the caller accumulated: no step leaves them
    return {**keys([trained(sub, 13, dataset(29, 4), 0.1, 0)], *STEP_KEYS), "held": caller_grads.kept_through(
        "train(model, inputs, targets, lr, 0)", caller_grads.parameters_of(model), functools.partial(sub.train, model, *dataset(29, 4), 0.1, 0))}


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
    return keys([trained(sub, 21, _data(), 0.2, LONG_STEPS[0]),
                  trained(sub, 34, dataset(17, 5), 0.2, LONG_STEPS[1])],
                 "call", "earlier", "hooked", "stepped", "step", "parameters", "left", "loss_after")


@EXERCISE.diagram
def draw(sub):
    # One hidden neuron of the trained model: tanh(b0 + x0 * w00 + x1 * w01).
    model = sub.make_model(0)
    # A model that is none is told here; one make_model returns again, by the tests.
    models.RETURNED.new(models.first_parameter(models.parameters(model, "make_model")))
    models.MADE.append(model)  # drawn before the tests run: an optimizer this call keeps steps it later
    _train(sub, model, *_data(), 0.2, DIAGRAM_STEPS)
    layer = model[0]
    x = [Value(0.5), Value(-1.0)]
    unit = layer(x)[0]
    h = unit.tanh()  # the first of the layer's 8 units; the other 7 are not drawn
    names = {"x0": x[0], "x1": x[1], "w00": layer.weight[0][0], "w01": layer.weight[0][1],
             "b0": layer.bias[0], "h": h}
    made = _layer_inputs(unit, layer, x)
    show([h], names, made)
    model.zero_grad()  # the drawing shows this neuron's gradients, not the last step's
    h.backward()
    return [h], names, made


def _layer_inputs(unit: Value, layer: Any, x: list[Value]) -> dict[Any, tuple[Value, ...]]:
    """The layer's node and what it took, in the order micrograph's Linear records them (biases,
    inputs, weights): x0 and x1, which the node saved and backward frees, drawn as themselves, where
    a nameless constant stood for each and x0, x1 apart from the graph; nothing for another layer."""
    inputs = (*(layer.bias or ()), *x, *(w for row in layer.weight for w in row))
    return made_of(unit.grad_fn, inputs) if all(isinstance(v, Value) for v in inputs) else {}
