"""What ex09's ``sgd_step`` did, observed step by step on leaves the probe makes: the loss it
returned (a new Value, its graph, not w itself), who wrote w.grad, how w changed (in place, by
-lr * w.grad, after the first backward), and whether a later step on a leaf used something an
earlier step left on it.  The test module holds the tests and their losses; this holds how one
step is watched, so that both have room to grow.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import micrograph
from micrograph import Value
from micrograph.value import shares_storage, shares_version_counter
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec.call import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.given_untracked import ModeNoted, told_if_untracked
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.graph import graph
from grader.spec.kept_loss import told_if_kept_root
from grader.spec.origins import returned_root
from grader.spec.probe import by_key, grad, num, stepped_grad
from grader.spec.refused import changed_untracked
from grader.spec.provenance import check, grad_of, same_object, value_of, watching
from grader.spec.repeat import Returned

_LOSS_RETURNED = Returned(N_("the loss sgd_step returned"), N_("the loss an earlier call of sgd_step returned"))
"""Every loss sgd_step returned in this run: the statement computes a new one at each step, and a
loss cached between calls is told by its identity."""


Move = tuple[float, float, float]
"""One step's change of w, the gradient left in w.grad, and the learning rate it was given."""


def watched_steps(sub, losses: list[tuple[float, Callable[[Value], Value], float]], steps: int) -> dict:
    """``steps`` calls of sgd_step on a new leaf for each loss, by key, with the DESCENDS fact of
    all those steps together first under ``w``.  The calls are made with grad mode on, as a
    program's: a file whose import left it off is told so by its own fact, not by sgd_step's error."""
    micrograph.set_grad_enabled(True)
    moves: list[Move] = []
    kept: list[bool] = []
    observed = by_key([_step(sub, start, loss_fn, lr, steps, moves, kept) for start, loss_fn, lr in losses])
    return {**observed, "w": [{**_descends(moves), CONTEXT + "kept_on_leaf": any(kept)}, *observed["w"]]}


def _step(sub, start: float, loss_fn: Callable[[Value], Value], lr: float, steps: int,
          moves: list[Move], kept: list[bool]) -> dict:
    """``steps`` calls of sgd_step on one new leaf; its moves go into ``moves``, and into ``kept``
    whether a later step on it depends on an earlier one (``_kept_on_leaf``)."""
    w = Value(start, requires_grad=True)
    runs, own = [], []
    for step in range(steps):
        before, version = w.item(), value_of(w, "w")["version"]
        given = ModeNoted(loss_fn)  # a backward that raised after a loss computed under no_grad says so
        # the call on a w without a gradient is named apart: a step that moves w by the gradient it
        # finds does nothing on it, and what that call did is not what every call did
        label = "sgd_step" if w.grad is not None else N_("sgd_step on a new w (w.grad is None)")
        calls = [len(earlier.modes) for earlier in _GIVEN]  # how often each earlier loss_fn ran so far
        with watching(sub, label, grad_mode=True, leaves=[w]) as call, told_if_untracked(given, "sgd_step", "loss_fn", call.offs), \
                told_if_grad_unwritten(call, "sgd_step", {"w": w}), told_if_kept_root(call, "sgd_step", _LOSS_RETURNED, w, version):
            call.sampled.append(w)  # its version as the first pass starts: an update made before it shows
            loss = sub.sgd_step(w, given, lr)
        at_pass = call.first_versions.get(id(w))
        first = at_pass is not None and at_pass > version and not call.changed_after_first_pass(w)
        now, g = num(w), stepped_grad(w)  # a .grad zeroed after the step: the number it stepped by
        changed = now != before or g != 0.0 and value_of(w, "w")["version"] != version  # w -= 0: a step of nothing
        if type(now) is float and type(g) is float and changed:  # other facts tell a w
            moves.append((now - before, g, lr))  # never changed, or a .grad set to None after the step
            own.append((step, before, now - before, g))
        runs.append({"loss": [_loss_value(loss, given, call), _LOSS_RETURNED.new(loss),
                              graph(loss, {"w": w}, label="the loss returned", freeing=False),
                              same_object(loss, w, "the loss returned", N_("the leaf w given to sgd_step")),
                              _root_returned(loss, call, loss_fn, (before, now), len(given.modes))],
                     "grad": grad_of(w, "w.grad"), "w": value_of(w, "w", call),
                     "call": [{**call.fact, **_flag_toggled(w, call)}, check(Check.UPDATED_AFTER_BACKWARD, not first, "sgd_step"),
                              _change_dropped(call, w, version), _loss_fn_called(given, calls)]})
    kept.append(_kept_on_leaf(sub, own, loss_fn, lr))
    return by_key(runs)


def _loss_value(loss: object, given: ModeNoted, call: Call) -> dict[str, Any]:
    """The VALUE fact of the loss a step returned, with context naming loss_fn where it is a copy
    of a loss loss_fn returned that requires grad, a new Value sharing that loss's number, with no grad_fn
    and no grad: ``~detach_of`` where it shares its version counter too (a detach()), ``~data_of`` where
    not and the step read that loss's ``.data``.  Told as that, not only as a Value no graph records."""
    fact = value_of(loss, "the loss returned")
    copied = [] if not isinstance(loss, Value) or loss.grad_fn is not None or loss.requires_grad else [
        made for made in given.results
        if isinstance(made, Value) and made is not loss and made.requires_grad and shares_storage(loss, made)]
    if any(shares_version_counter(loss, made) for made in copied):
        return {**fact, CONTEXT + "detach_of": "loss_fn"}
    if any(call.through_data.get(id(made)) is made for made in copied):
        return {**fact, CONTEXT + "data_of": "loss_fn"}
    return fact


def _flag_toggled(w: Value, call: Call) -> dict[str, Any]:
    """Context of a step's CALL fact: ``~flag_toggled`` (naming w) where the step changed w in place
    while w did not require grad and w requires grad again now (requires_grad switched off around the
    update, in place of no_grad); nothing otherwise."""
    toggled = changed_untracked(w, call).get(CONTEXT + "leaf_not_yet_requiring") is True
    return {CONTEXT + "flag_toggled": "w"} if toggled else {}


def _root_returned(loss: object, call: Call, loss_fn: Callable[[Value], Value], w: tuple[float, object],
                   runs: int) -> dict[str, Any]:
    """The RETURNED_ROOT fact of one step: the loss returned is the root its backward pass started from.
    Judged False only where it is not and its number is loss_fn's at w as the step left it, not as it
    found it (``w``: before the step, after it): a loss computed again after the update (``return
    loss_fn(w)``, context ``~computed_again``); or where loss_fn ran more than once (``runs``) and the
    loss returned, recorded by a graph, holds loss_fn's number at w as the step found it (``~computed_twice``:
    ``loss = loss_fn(w); loss_fn(w).backward()``).  A loss returned otherwise (w itself, a float) is told
    by its own facts."""
    fact = returned_root(loss, call, "the loss returned")
    if fact["holds"] is not False:
        return fact
    with micrograph.no_grad():
        at = [loss_fn(Value(number)).item() if type(number) is float else None for number in w[::-1]]
    again = isinstance(loss, Value) and at[0] is not None and at[0] == loss.item() != at[1]
    twice = isinstance(loss, Value) and loss.grad_fn is not None and runs > 1 and not again and at[1] == loss.item()
    return {**fact, "holds": False if again or twice else None, CONTEXT + "computed_again": again,
            CONTEXT + "computed_twice": twice}


_GIVEN: list[ModeNoted] = []
"""Every loss_fn the probes handed sgd_step in this run, kept alive: a call that ran an earlier
call's loss_fn (kept between calls, in a default argument or a global) and not its own is told so."""


def _loss_fn_called(given: ModeNoted, calls: list[int]) -> dict[str, Any]:
    """The LOSS_FN_CALLED fact of one sgd_step: it called the loss_fn ``given``; with context
    ``earlier`` whether it called one an earlier call was given (``calls``: how often each of
    those had run before this call)."""
    earlier = any(len(noted.modes) > n for noted, n in zip(_GIVEN, calls))
    _GIVEN.append(given)
    return {**check(Check.LOSS_FN_CALLED, bool(given.modes), "sgd_step"), CONTEXT + "earlier": earlier}


def _kept_on_leaf(sub, own: list[tuple[int, float, float, float]], loss_fn: Callable[[Value], Value], lr: float) -> bool:
    """Whether the first step on a leaf (``own``: each step's index, w before it, its move and
    w.grad) moved it by -lr * w.grad, a later one on that leaf did not, and the same step on a new
    leaf holding the number that later step started from does: an earlier step left something on w
    (a velocity as an attribute, state kept for that leaf) that the later one used."""
    def right(moved: float, g: float) -> bool:
        return math.isclose(moved, -lr * g, rel_tol=STEP_TOLERANCE, abs_tol=STEP_TOLERANCE)
    later = next((before for step, before, moved, g in own if step > 0 and not right(moved, g)), None)
    if not own or own[0][0] != 0 or not right(*own[0][2:]) or later is None:
        return False
    fresh = Value(later, requires_grad=True)
    try:
        with micrograph.enable_grad():
            sub.sgd_step(fresh, loss_fn, lr)
    except Exception:  # noqa: BLE001 - the student's error: the test's own calls tell it
        return False
    g = grad(fresh)
    return type(g) is float and right(fresh.item() - later, g)


def _change_dropped(call: Call, w: Value, version: int) -> dict[str, Any]:
    """The CHANGE_NOT_DROPPED fact of one sgd_step: False, with the engine function as context
    ``~function``, where the step left w's version counter where it found it and an engine
    function raised into the student's code, which went on (``try: w -= ... except: pass``).
    Such a step never changed w, which w's own version already costs it: this fact only says why."""
    unchanged = value_of(w, "w")["version"] == version
    if not (unchanged and call.engine_raised):
        return check(Check.CHANGE_NOT_DROPPED, True, "sgd_step")
    return {**check(Check.CHANGE_NOT_DROPPED, False, "sgd_step"), CONTEXT + "function": call.engine_raised[0]}


def _descends(moves: list[Move]) -> dict[str, Any]:
    """The DESCENDS fact of a test's steps that moved w: each changed it by -lr * w.grad.  Where
    not, the CONTEXT ``along`` says whether every step with a gradient moved w by lr * w.grad
    along it (the sign flipped throughout, and only the sign); a step of another size, lr * w.grad
    * w or lr - w.grad, moves along the gradient at some w and against it at others, and is told
    by its size only."""
    by_lr = all(math.isclose(moved, -lr * g, rel_tol=STEP_TOLERANCE, abs_tol=STEP_TOLERANCE)
                for moved, g, lr in moves)
    along = [math.isclose(moved, lr * g, rel_tol=STEP_TOLERANCE, abs_tol=STEP_TOLERANCE)
             for moved, g, lr in moves if g != 0.0]
    return {**check(Check.DESCENDS, by_lr, "sgd_step"), CONTEXT + "along": bool(along) and all(along),
            CONTEXT + "unmoved": any(moved == 0.0 != g for moved, g, _ in moves)}  # changed in place by nothing


STEP_TOLERANCE = 1e-9
"""How far a step's change of w may be from -lr * w.grad: the rounding of w - lr * w.grad, however
the student wrote it (sub_, copy_, a product in either order)."""
