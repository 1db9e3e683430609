"""What each optimizer.step() of a training loop found in the parameters' .grad.

A loop that clears the gradients between backward and step (``loss.backward()``,
``optimizer.zero_grad()``, ``optimizer.step()``) runs every pass and every step, and only its
numbers differ: the step applied nothing.  ``steps_seen`` watches the calls of the engine's
``SGD.step`` (a profile hook, so only around a loop of few steps: it sees every call) and notes,
as each starts, whether some parameter held a gradient to apply (a number other than 0) and
what the block's backward passes had done before it (``watching``'s record of them);
``stepped`` makes the CHECK fact.  The size of each step is ``step_sizes``' to tell.  ``first_loss``
judges the first loss a loop returned, ``unhooked`` whether a hook of the student's chose the
gradients a loop's steps applied, and ``cleared_first`` whether a loop given a model with
gradients cleared them before its first backward; ``count`` whether it returned one loss per
step (``grader.spec.fitted``: also on data its model already fits, where an early stop stops), and
``none_left`` whether it moved every parameter of its model.
"""

from __future__ import annotations

import contextlib
import inspect
import math
from collections.abc import Iterator, Sequence
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType
from typing import Any, NamedTuple

from micrograph import Value, nn, observe, optim

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close as probe_close, grad, num, rounded_to, type_name
from grader.spec.call import Call
from grader.spec.hooked import WRITES
from grader.spec.provenance import check, result_of

STEP_CODE = inspect.unwrap(optim.SGD.step).__code__  # under its no_grad decorator
# A frame runs that code under optim's globals only (a function made of it under others would
# need its ``__code__``, which no submission may name): a frame's code is read (an audited read,
# at every call of the loop) only under them.
_STEP_NAMESPACE = inspect.unwrap(optim.SGD.step).__globals__

class Seen(NamedTuple):
    """One step, as it started."""

    found: bool  # some parameter held a gradient to apply (a number other than 0)
    after_pass: bool  # a backward pass had run before it in the block
    after_writing: bool  # ... one that reached every parameter (so it wrote each .grad)
    numbers: tuple[Any, ...] = ()  # each parameter's number as the step started
    grads: tuple[Any, ...] = ()  # ... and its .grad's number (None: no .grad)
    own: bool = True  # the optimizer stepped holds some of the parameters (False: only another model's)
    written_zero: bool = False  # ... every .grad a zero backward wrote, untouched since (nothing cleared it)
    after_caught: bool = False  # an engine error (a backward that raised) had raised into the student's code before it


@contextlib.contextmanager
def steps_seen(call: Call, parameters: Sequence[Any]) -> Iterator[list[Seen]]:
    """Every SGD.step call made in the block, as it started (see the module doc); ``call``
    watches the same block with the parameters as its leaves (what its passes reached)."""
    seen: list[Seen] = []
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_globals is _STEP_NAMESPACE and frame.f_code is STEP_CODE:
            wrote = any(reached and backward for reached, backward in zip(call.reached, call.by_backward))
            found = any(grad(p) not in (None, 0.0) for p in parameters)
            seen.append(Seen(found, bool(call.kept_graph), wrote,
                             tuple(num(p) for p in parameters), tuple(grad(p) for p in parameters),
                             _holds_some(frame.f_locals.get("self"), parameters),
                             not found and all(_as_backward_wrote(p) for p in parameters),
                             bool(call.caught.pending or call.caught.went_on)))

    setprofile(sample)
    try:
        yield seen
    finally:
        setprofile(previous)


def _at_zero(p: Any) -> bool:
    """Whether ``p.grad`` is a 0 a backward pass wrote, untouched since."""
    return grad(p) == 0.0 and _as_backward_wrote(p)


def _as_backward_wrote(p: Any) -> bool:
    """Whether ``p.grad`` is what a backward pass wrote, untouched since (no zero_grad after it)."""
    write = observe.grad_write(p) if isinstance(p, Value) else None
    return write is not None and write.by_engine and write.intact(p)


def _holds_some(optimizer: object, parameters: Sequence[Any]) -> bool:
    """Whether the optimizer a step was called on holds one of ``parameters`` in its groups (read
    from its own ``__dict__``, as the engine's SGD keeps them; True where they cannot be read)."""
    try:
        groups = vars(optimizer)["param_groups"]
        return any(p is q for group in groups for q in group["params"] for p in parameters)
    except Exception:  # noqa: BLE001 - an optimizer of another make: nothing is told of it
        return True


def stepped(seen: list[Seen], label: str) -> dict[str, Any]:
    """The STEPPED_ON_GRADS fact: every step found a gradient to apply (so it holds when no step
    was seen: a loop that updates by hand).  Context on the first step that found none:
    ``~other_model``, its optimizer holds none of the parameters (another model's); ``~cleared``, a
    backward pass had written every parameter's .grad before it (so they were cleared since);
    ``~before_backward``, no pass had run yet, nor had a backward of the loop's raised (the loop
    called step first; one that caught its backward's error is told by that error, ``caught``);
    ``~zero_written``, every .grad is the zero a backward pass wrote (the loss it started from
    does not change with the parameters: nothing was cleared)."""
    empty = [step for step in seen if not step.found]
    fact = check(Check.STEPPED_ON_GRADS, not empty, label)
    if empty:
        fact[CONTEXT + "other_model"] = not empty[0].own
        fact[CONTEXT + "zero_written"] = empty[0].written_zero and empty[0].after_writing
        fact[CONTEXT + "cleared"] = empty[0].after_writing and not empty[0].written_zero
        fact[CONTEXT + "before_backward"] = not empty[0].after_pass and not empty[0].after_caught
    return fact


def each_step(seen: list[Seen], after: Sequence[Any], lr: float, label: str) -> dict[str, Any]:
    """The STEP_BY_GRAD fact of a loop whose steps were watched (``steps_seen``): each
    optimizer.step() moved every parameter by -lr * the .grad it found (the next step's start, or
    the parameters after the loop, against this step's).  ``~later``: the first step did, a later
    one did not (an update that carries earlier gradients, or an lr changed between steps).  It
    holds where it cannot be judged (no step seen: a loop that updates by hand; a number that is
    not a float: other facts tell those)."""
    ends = [step.numbers for step in seen[1:]] + [tuple(num(p) for p in after)]
    moved = []
    for step, end in zip(seen, ends):
        pairs = list(zip(step.numbers, end, step.grads))
        if not pairs or not all(type(x) is float for a, b, g in pairs for x in (a, b) + ((g,) if g is not None else ())):
            return check(Check.STEP_BY_GRAD, True, label)
        moved.append(all(math.isclose(b - a, -lr * (g or 0.0), rel_tol=1e-6, abs_tol=1e-9) for a, b, g in pairs))
    fact = check(Check.STEP_BY_GRAD, all(moved), label)
    fact[CONTEXT + "later"] = bool(moved) and moved[0] and not all(moved)
    return fact


def cleared_first(call: Call, parameters: Sequence[Any], label: str) -> dict[str, Any]:
    """The CLEARED_FIRST fact of a loop ``call`` watched with the ``parameters`` of a model that
    came with gradients in their .grad: its first backward pass found every .grad cleared (None or
    zero), as the statement's loop clears at the start of each step.  Where every later pass found
    them cleared: ``~later``, the loop cleared them after its last pass too (it clears after a
    step's backward, not before it); ``~but_first``, the last pass's gradients are left in every
    .grad (it clears at the start of every step but the first).  It holds where no pass ran, or the
    first was no backward reaching every parameter (other facts tell those: such a pass added
    nothing to them)."""
    added = bool(call.cleared) and call.reached[0] and call.by_backward[0]
    fact = check(Check.CLEARED_FIRST, not added or call.cleared[0], label)
    later = len(call.cleared) > 1 and all(call.cleared[1:])
    left = all(_as_backward_wrote(p) for p in parameters)
    fact[CONTEXT + "later"], fact[CONTEXT + "but_first"] = later and not left, later and left
    return fact


def first_loss(losses: object, first: float, last_updated: float, rows: Sequence[float]) -> dict[str, Any]:
    """The CHECK fact: the first loss returned is the mean squared error of the model given,
    before any update (None: no loss returned, or no number: ``count``, its type tell).  Beside it, which other
    loss it is, where it is one the probe can name: the sum of the squared errors (as many times
    the mean as there are ``rows``), losses taken after each update (the last one is the loss of
    the model as train left it, ``last_updated``; ``~after_one_update`` where it is the only one, of
    which "each" would say more than was seen), that loss rounded to fewer digits, the loss
    of one row of the batch alone (``rows``: each row's mse_loss before any update), or the list's
    last (``~reversed``: the first step's loss put at the end, ``losses.insert(0, ...)`` or a rotation)."""
    if type(losses) is not list or not losses or type(num(losses[0])) is not float:
        return check(Check.FIRST_LOSS, None, "losses[0]")
    number, last = num(losses[0]), num(losses[-1])
    other = not close(number, first)
    return {**check(Check.FIRST_LOSS, not other, "losses[0]"),
            CONTEXT + "reversed": other and len(losses) > 1 and close(last, first),
            CONTEXT + "summed": close(number, first * len(rows)),
            CONTEXT + "after_update": close(last, last_updated) and other and len(losses) > 1,
            CONTEXT + "after_one_update": close(last, last_updated) and other and len(losses) == 1,
            CONTEXT + "rounded": other and rounded_to(number, first),
            CONTEXT + "one_row": other and one_row(number, rows) is not None}


def last_loss(losses: object, first: float, last_updated: float) -> dict[str, Any]:
    """The LAST_LOSS fact of a loop whose first loss is the model's before any update (``first``):
    its last is not ``last_updated``, the loss of the model as train left it (the statement records
    each step's loss before its update; a loss computed once more after training is not one).  It
    holds where there is one loss or none, or the first is another (``first_loss`` tells it), or
    train left the model's loss as it came (no step changed it: its last loss is also the loss
    before an update, and ``LOSSES_MOVE`` tells the losses all alike)."""
    shifted = type(losses) is list and len(losses) > 1 and close(num(losses[0]), first) and close(
        num(losses[-1]), last_updated) and not close(last_updated, first)
    return check(Check.LAST_LOSS, not shifted, f"losses[{len(losses) - 1}]" if type(losses) is list else "losses")


def one_row(number: object, rows: Sequence[float]) -> int | None:
    """The first of ``rows`` (each row's loss alone) that ``number`` is, or None."""
    return next((k for k, row in enumerate(rows) if close(number, row)), None)


def first_number(losses: object) -> float:
    """The first loss returned, as a float (nan where there is none)."""
    return num(losses[0]) if type(losses) is list and losses and type(num(losses[0])) is float else math.nan


def close(number: object, to: float) -> bool:
    """Whether a number returned is ``to``, up to the rounding of another order of operations."""
    return type(number) is float and probe_close(number, to)


def unhooked(parameters: Sequence[Any], passes: range, label: str) -> dict[str, Any]:
    """The UNHOOKED fact: no backward pass numbered in ``passes`` (a loop's) wrote the .grad of a
    parameter from a gradient a hook of the student's chose (``hooked.WRITES``): a hook that
    returns another number than the one backward computed (a clamp) makes every later step apply
    it.  A hook that only looks, or returns the same number, chose nothing."""
    return check(Check.UNHOOKED, not WRITES.hooked(passes, parameters), label)


def none_left(start: list[float], after: list[Any], layers: Sequence[int]) -> dict[str, Any]:
    """The NONE_LEFT fact: a loop that moved some parameter of its model moved every one (the
    statement's step updates them all).  ``~left`` names the first it never changed by its place
    in ``list(model.parameters())``, from the end where that is nearer (a layer's bias left out of
    the optimizer's list reads ``[-1]``); ``~layer``, where those it never changed are exactly the
    parameters of one layer (``layers``: each child's count of parameters, in order), that layer;
    ``~zero_grad``, where the first it never changed holds in its .grad a 0 a backward pass wrote
    (the loss the loop backpropagated has no slope along it there: a step by it moves nothing).
    A parameter changed in place (its version counter moved) that holds another gradient is not
    left, whatever its number: its steps moved it, and brought it back (a loss whose gradient
    flips sign from step to step)."""
    moved = [num(p) != was for p, was in zip(after, start)]
    back = [getattr(p, "_version", 0) != 0 and not _at_zero(p) for p in after]
    left = [k for k, changed in enumerate(moved) if not changed and not back[k]]
    fact = check(Check.NONE_LEFT, not (left and any(moved)), "train")
    if left and any(moved):
        place = left[0] if left[0] < len(moved) / 2 else left[0] - len(moved)
        fact[CONTEXT + "left"] = f"list(model.parameters())[{place}]"
        fact[CONTEXT + "zero_grad"] = _at_zero(after[left[0]])
        ends = [sum(layers[:i]) for i in range(len(layers) + 1)]
        whole = [i for i, n in enumerate(layers) if n and left == list(range(ends[i], ends[i + 1]))]
        fact[CONTEXT + "one_layer"] = bool(whole)
        if whole:
            fact[CONTEXT + "layer"] = f"list(model.children())[{whole[0]}]"
    return fact


def not_a_list(losses: object) -> dict[str, Any]:
    """What train returned instead of a list, told as such, by its own label (the len of None is
    no result of the student's)."""
    return result_of(f"not a list: {type_name(losses)}", "train(model, inputs, targets, lr, steps)")


def count(losses: object, steps: int, passes: int) -> dict[str, Any]:
    """Whether train returned one loss per step (the statement asks for ``steps`` of them, so more
    or fewer is no hidden number): ``~fewer``, ``~more``, and ``~one_step_fewer`` / ``~one_step_more``,
    one loss off and as many as the backward passes that ran (the loop ran one step off)."""
    if type(losses) is not list:
        return not_a_list(losses)
    off = len(losses) - steps
    return {**check(Check.LOSS_PER_STEP, off == 0, "train"), CONTEXT + "fewer": off < 0, CONTEXT + "more": off > 0,
            CONTEXT + "one_step_fewer": off == -1 and len(losses) == passes,
            CONTEXT + "one_step_more": off == 1 and len(losses) == passes}


def from_the_loss(call: Call, output_op: str, label: str) -> dict[str, Any]:
    """The FROM_THE_LOSS fact: no backward pass of the loop started from a node of the kind that
    makes the model's outputs (``output_op``, the node of ``model(inputs)``'s entries): a loss is a
    reduction of them, made by another node, whichever way it is written."""
    started = [node.name() for roots in call.root_nodes for node in roots if hasattr(node, "name")]
    return check(Check.FROM_THE_LOSS, output_op not in started, label)


def losses_of(model: nn.Module, data: tuple[list[list[float]], list[list[float]]], lr: float, steps: int) -> list[float]:
    """The losses the statement's loop returns on ``model`` (which it trains) for ``data``."""
    optimizer, losses = optim.SGD(model.parameters(), lr), []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.mse_loss(model(data[0]), data[1])
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses

