"""ex15's run of train: the probe's model, trained by the student's loop, observed.

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
the parent: nothing is trained twice here.
"""

from __future__ import annotations

import contextlib
import functools
import math
import random
from types import GeneratorType
from typing import Any

import micrograph
from micrograph import nn, observe

from grader.spec import models
from grader.spec.call import Call
from grader.spec.caught import caught_seen
from grader.spec.earlier import marked, state
from grader.spec.given_untracked import told_if_module_untracked
from grader.spec.graph_again import told_if_graph_again
from grader.spec.facts import CONTEXT, Check
from grader.spec.held import held
from grader.spec.mode_restored import called
from grader.spec.probe import by_key, num
from grader.spec.provenance import check, list_kept, same_object, value_of, watching
from grader.spec.spent import spent_kept
from grader.spec.step_sizes import Run, on_one_row, replayed, step_size, steps_scaled
from grader.spec.stepped import (cleared_first, count, each_step, first_loss, first_number, from_the_loss,
                                 last_loss, none_left, not_a_list, one_row, steps_seen, stepped, unhooked)

Data = tuple[list[list[float]], list[list[float]]]  # (inputs, targets): rows of numbers


def dataset(seed: int, n: int, scale: float = 1.0, kept: bool = True) -> Data:
    """n points in [-1, 1]^2 with a smooth nonlinear target times ``scale``, drawn from ``seed`` (a large scale
    gives gradients above one, which a clamping hook changes); ``kept`` alive (``grader.spec.held``): rows kept by
    ``id(inputs)`` meet a freed list's id only in the probe that frees its own (``kept`` false)."""
    rng = random.Random(seed)
    inputs = [[rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)] for _ in range(n)]
    targets = [[scale * (x0 * x1 + 0.5 * math.sin(2.0 * x0) - 0.25 * x1)] for x0, x1 in inputs]
    held(*((inputs, targets) if kept else ()))
    return inputs, targets


def _losses(losses: object) -> list[dict[str, Any]] | dict[str, Any]:
    if type(losses) is not list:
        return not_a_list(losses)
    return [value_of(x, f"losses[{k}]") for k, x in enumerate(losses)]


def trained(sub, seed: int, data: Data, lr: float, steps: int, kept: bool = False,
            steps_watched: bool = False) -> dict[str, Any]:
    """train on the probe's model: what the loop did (passes, each pass's parameters), what it
    returned, and the model afterwards.  Whether a pass kept its graph counts with ``kept``
    (the one-step tests), and is only told elsewhere: it wastes memory, not the training.
    ``steps_watched`` (a short loop: the profile hook sees every call) watches what each
    optimizer.step() found, and a generator of model.parameters() the optimizer read that the loop
    still holds (``spent``).  Every run notes an engine error the loop caught and went on from (a
    backward that raised, in a try): its CALL fact tells it (``caught.caught_seen``)."""
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
    given = _given_lists(inputs, targets)
    with watching(sub, "train", grad_mode=None, retain_graph=kept, leaves=before) as call, \
            (steps_seen(call, before) if steps_watched else contextlib.nullcontext([])) as seen, \
            (spent_kept(getattr(sub, "__dict__", None)) if steps_watched else contextlib.nullcontext([])) as spent, \
            told_if_graph_again(call, "train"), \
            told_if_module_untracked(lambda: models.model(seed),
                                     lambda again: sub.train(again, inputs, targets, lr, steps),
                                     call.filename, "train", "model"), \
            caught_seen(call.caught, getattr(sub, "__dict__", None)):
        losses = sub.train(model, inputs, targets, lr, steps)
    earlier_kept = check(Check.EARLIER_KEPT, state(models.earlier(model)) == earlier, "train")
    after = models.parameters(model, "the probe")
    with micrograph.no_grad():
        loss_after = nn.mse_loss(model(inputs), targets)
    return {
        "losses": _losses(losses), "last_loss": last_loss(losses, first, loss_after.item()),
        "first_loss": first_loss(losses, first, loss_after.item(), rows),
        "count": count(losses, steps, call.started),
        "moved": {**check(Check.LOSSES_MOVE, not (type(losses) is list and len(losses) > 1  # numbers, all one
                                                  and len({repr(num(x)) for x in losses}) == 1 and type(num(losses[0])) is float), "train"),
                  **_went_on(call)},
        "call": {**call.fact, **({CONTEXT + "unrun_generator": True} if _unrun(losses) else {}),
                 **({CONTEXT + "spent_in": spent[0]} if spent else {})},
        "body_ran": check(Check.BODY_RAN, not _unrun(losses), "train"), "earlier": earlier_kept,
        "given": _lists_kept(given),
        "hooked": unhooked(before, range(passes + 1, observe.passes() + 1), "train"),
        "stepped": _stepped(seen, steps_watched, steps > 0 and call.started > 0, after, start), "each_step": each_step(seen, after, lr, "train") if steps_watched
        else check(Check.STEP_BY_GRAD, True, "train"),
        "same_objects": [same_object(p, q, models.PARAMETER, "p before train()")
                         for p, q in zip(after, before)] + [len(after) == len(before)],
        "parameters": [parameter(p, was) for p, was in zip(after, start)],
        "from_loss": from_the_loss(call, model([inputs[0]])[0][0].grad_fn.name(), "train"),
        "left": none_left(start, after, [len(models.parameters(nn.Sequential(layer), "the probe"))
                                         for layer in model.children()]),
        "step": on_one_row(run, after, one_row(first_number(losses), rows), _replayed)
        or (step_size(start, gradients, after, lr, first_number(losses) / first) if steps == 1
            else steps_scaled(run, after, first_number(losses) / first, functools.partial(_replayed, run),
                              functools.partial(_one_step, sub, run))),
        "loss_after": value_of(loss_after, "mse_loss(model(inputs), targets) after train()"),
    }


def _stepped(seen: list[Any], watched: bool, ran: bool, after: list[Any], start: list[float]) -> dict[str, Any]:
    """The STEPPED_ON_GRADS fact of a loop that ran a backward pass where steps were asked for (``ran``): where no
    parameter changed it fails, ``~never_called`` where its steps were watched and no optimizer.step() was seen
    (the gradients were never applied, by a step or by hand), ``~unchanged`` where they were not watched (nothing
    applied them, whether a step was called or not); else ``stepped.stepped``'s."""
    if ran and all(num(p) == was for p, was in zip(after, start)) and not (watched and seen):
        return {**check(Check.STEPPED_ON_GRADS, False, "train"), CONTEXT + ("never_called" if watched else "unchanged"): True}
    return stepped(seen, "train")


def _given_lists(inputs: list[list[float]], targets: list[list[float]]) -> list[tuple[list[Any], list[Any], str]]:
    """The lists train is given, inputs and targets and each of their rows, each beside a copy of
    its entries and its name."""
    named = [("inputs", inputs), *((f"inputs[{k}]", row) for k, row in enumerate(inputs)),
             ("targets", targets), *((f"targets[{k}]", row) for k, row in enumerate(targets))]
    return [(listed, list(listed), name) for name, listed in named]


def _lists_kept(given: list[tuple[list[Any], list[Any], str]]) -> dict[str, Any]:
    """The LIST_KEPT fact (``provenance.list_kept``) of the first list of ``given`` that train
    changed (entries replaced, added or removed: a row's numbers made Values in place), else of
    inputs: the statement's loop only reads them, and a caller that reads its rows again after
    the call finds what train left there."""
    facts = [list_kept(listed, was, "train", name) for listed, was, name in given]
    return next((fact for fact in facts if fact.get("holds") is False), facts[0])


def _went_on(call: Call) -> dict[str, Any]:
    """Context of the LOSSES_MOVE fact: the engine function whose error the loop caught and went on
    from (``~engine_function``), which is why losses all alike came about (no backward finished)."""
    went_on = call.caught.went_on
    return {CONTEXT + "went_on": True, CONTEXT + "engine_function": went_on[0][0]} if went_on else {}


def _unrun(losses: object) -> bool:
    """Whether train returned a generator of its own that nothing ran (train holds yield): none of its
    body ran, which is why the call ran no backward pass and changed nothing (context of the CALL fact, and
    the BODY_RAN fact of the tests that look at the losses)."""
    return (type(losses) is GeneratorType and losses.__qualname__ == "train"
            and not losses.gi_running and not losses.gi_suspended)


def parameter(p: object, was: float, label: str = models.PARAMETER) -> dict[str, Any]:
    """A parameter after train(). A step through ``.data`` (``p.data.sub_(lr * p.grad)``, the
    documents' way to change a leaf's number) changes it in place, the same leaf, as the
    statement asks, but moves no version counter, in PyTorch too: a number changed at version 0
    is such a step, and its count is then context (the number is judged)."""
    fact = value_of(p, label)
    if fact.get("version") == 0 and fact.get("data") != was:
        fact[CONTEXT + "version"] = fact.pop("version")
    return fact


def _replayed(run: Run, scale: float, once_more: bool = False) -> list[float]:
    """The parameters the statement's loop leaves (``step_sizes.replayed``) on a new model of the
    run's seed, not one of ``models.MADE``: no call of train was given it."""
    micrograph.manual_seed(run.seed)
    return [p.item() for p in models.parameters(replayed(nn.MLP(models.SIZES), run, scale, once_more), "the probe")]


def _one_step(sub, run: Run) -> dict[str, Any]:
    """train given one step on a new model of the run's seed, data and lr: its STEP_SIZE fact
    (``step_size``: whether it moved every parameter by one other multiple of its .grad than lr,
    each .grad the statement's gradient, and whether as many in-place changes made it); none where
    it raised."""
    model = models.model(run.seed)
    before = models.parameters(model, "the probe")
    start, loss = [p.item() for p in before], nn.mse_loss(model(run.inputs), run.targets)
    gradients = [g.item() for g in micrograph.grad(loss, before)]
    try:
        losses = called("train", sub.train, model, run.inputs, run.targets, run.lr, 1)
    except Exception:  # noqa: BLE001 - the one-step tests tell a call that raises
        return {}
    after = models.parameters(model, "the probe")
    return step_size(start, gradients, after, run.lr, first_number(losses) / loss.item())


def keys(runs: list[dict[str, Any]], *kept: str) -> dict[str, list[Any]]:
    """The observations of several runs, one list per key, keeping only the keys ``kept``."""
    return by_key([{key: run[key] for key in kept} for run in runs])


def came_with(sub, seed: int, data: Data, lr: float, steps: int) -> dict[str, Any]:
    """train given a model whose parameters already hold gradients (one backward of its loss on
    other data): whether its first backward pass found them cleared, as the statement's loop
    clears at the start of every step (``stepped.cleared_first``)."""
    model = models.model(seed)
    parameters = models.parameters(model, "the probe")
    inputs, targets = dataset(seed, 3)
    nn.mse_loss(model(inputs), targets).backward()
    with watching(sub, "train", grad_mode=None, leaves=parameters) as call:
        sub.train(model, *data, lr, steps)
    return cleared_first(call, parameters, "train")
