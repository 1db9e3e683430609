"""The STEP_SIZE fact: whether each optimizer.step() of a training loop moved the parameters by lr
times the gradient of the statement's loss, and, where not, by what: another multiple of it (a
scaled loss, a step that ignores lr, one update made twice), along it, with weight decay, on
another loss or on one row of the batch alone.  A run of one step is judged from its numbers; a
run of several, where only the parameters at the end are seen, by replaying the statement's loop
(``replayed``).  Apart from what the steps found (``stepped``) because it judges where the steps
went, from numbers alone."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from micrograph import Value, nn, optim

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import num
from grader.spec.provenance import check


def step_size(start: list[float], gradients: list[float], after: list[Any], lr: float,
               loss_ratio: float) -> dict[str, Any]:
    """The STEP_SIZE fact of a one-step run (``gradients``: d mse_loss / d p at the start): every
    parameter moved by lr times its gradient.  Where every one moved by one other multiple of it,
    ``~loss_scaled`` says whether losses[0] is that multiple of the statement's loss too (a loss
    that is a fixed multiple of mse_loss), ``~lr_other`` whether each .grad is that gradient (the
    step then does not follow lr), unless ``~repeated``: each was changed in place as many times, more
    than once, as the multiple it moved by (the step's update applied again: a step of lr's size,
    made more than once).  ``~ascent``: every parameter moved by lr times its gradient, along it
    (p + lr * grad); ``~decay``: by lr times its gradient and, beyond it, one multiple of its own
    number (weight decay), not lr times its .grad (a penalty in the loss: ``~other_loss``).  It holds where it cannot be judged (parameters moved otherwise)."""
    ratios = [(s - num(p)) / (lr * g) for s, p, g in zip(start, after, gradients)
              if abs(g) > 1e-6 and type(num(p)) is float]
    alike = bool(ratios) and all(math.isclose(r, ratios[0], rel_tol=1e-6) for r in ratios)
    scaled = alike and not math.isclose(ratios[0], 1.0, rel_tol=1e-6) and ratios[0] > 0
    ascent = alike and math.isclose(ratios[0], -1.0, rel_tol=1e-6)
    written = [num(p.grad) if isinstance(p.grad, Value) else None for p in after]
    decay = _decayed(start, gradients, after, lr) and not _by_own_grad(start, after, lr, written)  # not a penalty in the loss
    own = scaled and all(type(w) is float and math.isclose(w, g, rel_tol=1e-6, abs_tol=1e-9)
                         for w, g in zip(written, gradients))
    repeated = own and _once_per_change(after, ratios[0])
    other = not (alike or decay) and _other_loss(start, gradients, after, lr, written, loss_ratio)
    return {**check(Check.STEP_SIZE, not (scaled or ascent or decay or other), "train"),
            CONTEXT + "ascent": ascent, CONTEXT + "decay": decay,
            CONTEXT + "loss_scaled": scaled and math.isclose(loss_ratio, ratios[0], rel_tol=1e-6),
            CONTEXT + "lr_other": own and not repeated, CONTEXT + "repeated": repeated, CONTEXT + "other_loss": other}


def _other_loss(start: list[float], gradients: list[float], after: list[Any], lr: float, written: list[Any], loss_ratio: float) -> bool:
    """Whether the step moved every parameter by lr times the .grad it left (an SGD step), while neither
    losses[0] (``loss_ratio``: it over the statement's first loss) nor those .grad are mse_loss and its
    gradients: the loop stepped on another loss (a penalty added to mse_loss too, whose step is no weight decay)."""
    return (_by_own_grad(start, after, lr, written) and len(written) == len(gradients) and math.isfinite(loss_ratio)
            and not math.isclose(loss_ratio, 1.0, rel_tol=1e-6)
            and not all(math.isclose(w, g, rel_tol=1e-6, abs_tol=1e-9) for w, g in zip(written, gradients)))


def _by_own_grad(start: list[float], after: list[Any], lr: float, written: list[Any]) -> bool:
    """Whether every parameter moved by exactly lr times the .grad it holds after the step."""
    return all(type(w) is float and type(num(p)) is float and math.isclose(s - num(p), lr * w, rel_tol=1e-6, abs_tol=1e-12)
               for s, p, w in zip(start, after, written))


def _once_per_change(after: list[Any], ratio: float) -> bool:
    """Whether every parameter was changed in place one same number of times, more than once, and
    that number is the multiple of lr times its .grad it moved by: one step's update made again
    (``optimizer.step()`` twice), not a step of another size."""
    counts = {getattr(p, "_version", None) for p in after}
    count = counts.pop() if len(counts) == 1 else None
    return type(count) is int and count > 1 and math.isclose(ratio, count, rel_tol=1e-6)


def _decayed(start: list[float], gradients: list[float], after: list[Any], lr: float) -> bool:
    """Whether each parameter moved by lr times its gradient and, beyond that, by one same
    multiple of its own number before the step, shrinking it (``p -= lr * (grad + wd * p)``)."""
    shares = [((s - num(p)) - lr * g) / s for s, p, g in zip(start, after, gradients)
              if abs(s) > 1e-6 and type(num(p)) is float]
    return (len(shares) > 1 and shares[0] > 1e-12 and len(shares) == len(start)
            and all(math.isclose(x, shares[0], rel_tol=1e-6) for x in shares))


class Run(NamedTuple):
    """One call of train a probe made: the seed of the model it was given, the data, lr, steps."""

    seed: int
    inputs: list[list[float]]
    targets: list[list[float]]
    lr: float
    steps: int


def replayed(model: nn.Module, run: Run, scale: float, once_more: bool = False) -> nn.Module:
    """``model`` after the statement's loop of ``run`` on ``scale`` times mse_loss; ``once_more``:
    and one optimizer.step() after it, on the gradients its last step left."""
    optimizer = optim.SGD(model.parameters(), run.lr)
    for _ in range(run.steps):
        optimizer.zero_grad()
        (nn.mse_loss(model(run.inputs), run.targets) * scale).backward()
        optimizer.step()
    if once_more:
        optimizer.step()
    return model


def steps_scaled(run: Run, after: Sequence[Any], loss_ratio: float, replay: Callable[[float, bool], list[float]],
                 one_step: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The STEP_SIZE fact of a run of several steps, whose parameters ended at ``after``.  Where
    losses[0] is another multiple of the statement's loss, ``~loss_scaled``: the statement's loop on
    that multiple of mse_loss (``replay(scale, False)``: the parameters it leaves) leaves these
    parameters, so every step was taken on that loss.  Else, where the statement's loop itself
    leaves others: ``~once_more``, its loop and one more optimizer.step() after it leaves these (the
    last gradient applied twice); or what a call of one step shows (``one_step``: its STEP_SIZE
    fact), a step that does not follow lr (``~lr_other``) or one update made more than once
    (``~repeated``), or one on another loss (``~other_loss``)."""
    def leaves(scale: float, once_more: bool = False) -> bool:
        return _ended_at(after, replay(scale, once_more))

    several = run.steps > 1
    scaled = (several and 0 < loss_ratio < math.inf and not math.isclose(loss_ratio, 1.0, rel_tol=1e-6)
              and leaves(loss_ratio))
    apart = several and not scaled and not leaves(1.0)
    once_more = apart and leaves(1.0, True)
    one = one_step() if apart and not once_more else {}
    lr_other, repeated, other = (one.get(CONTEXT + key) is True for key in ("lr_other", "repeated", "other_loss"))
    return {**check(Check.STEP_SIZE, not (scaled or once_more or lr_other or repeated or other), "train"),
            CONTEXT + "loss_scaled": scaled, CONTEXT + "once_more": once_more, CONTEXT + "lr_other": lr_other,
            CONTEXT + "repeated": repeated, CONTEXT + "other_loss": other}


def on_one_row(run: Run, after: list[Any], row: int | None, replay: Callable[[Run, float], list[float]]
               ) -> dict[str, Any] | None:
    """The STEP_SIZE fact of a run whose first loss is that of one row of the batch alone, where
    the statement's loop on that row alone (``replay``: the parameters it leaves) leaves these
    parameters: every step was taken on that row's loss (``~one_row``), not the batch's.  None
    where it is not so (the other step facts judge)."""
    if row is None or not run.steps:
        return None
    alone = replay(Run(run.seed, run.inputs[row:row + 1], run.targets[row:row + 1], run.lr, run.steps), 1.0)
    if not _ended_at(after, alone):
        return None
    return {**check(Check.STEP_SIZE, False, "train"), CONTEXT + "one_row": True}


def _ended_at(after: Sequence[Any], replay_after: list[float]) -> bool:
    """Whether the parameters ``after`` hold the numbers a replayed loop left (``replay_after``), one for one."""
    return len(replay_after) == len(after) and all(type(num(p)) is float and math.isclose(
        num(p), q, rel_tol=1e-6, abs_tol=1e-9) for p, q in zip(after, replay_after))
