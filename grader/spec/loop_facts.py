"""Facts of a training loop's calls (ex05's ``grad_history``): what its backward passes and
its clearings of ``.grad`` did, read from the ``Call`` that watched it.

Each fact tells one slip of a loop that may still give the right numbers: a y built once and
backpropagated again, records read after clearing, a clearing that reaches one leaf only, a
loop that ignores its step count, a hook of the student's that clears a gradient mid-pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from micrograph import Value

from grader.spec.call import Call
from grader.spec.equal_skipped import equal_skipped_in_loop
from grader.spec.facts import CONTEXT, Check
from grader.spec.hooked import WRITES
from grader.spec.probe import num
from grader.spec.provenance import check, grad_of

PASSES = CONTEXT + "passes"
"""A call's steps and the backward passes it started (compared by ``steps_followed``)."""


def hook_cleared(passes: range, w: Value) -> dict[str, Any]:
    """Context for the records (``~hook_cleared``: w): a hook of the student's cleared w.grad while
    one of the call's backward passes ran, before the pass added to it (``hooked.WRITES``), so
    that pass left w.grad holding its own gradient alone, whatever reset asked."""
    return {CONTEXT + "hook_cleared": "w"} if WRITES.hook_cleared(passes, w) else {}


def steps_followed(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The STEPS_FOLLOWED fact of a test's calls, given different step counts: False where every
    call ran the same number of passes (``for step in range(3)``, the documents' loop copied),
    which the many sentences of each call's pass count and history length only show call by
    call.  A loop that runs no backward pass at all is told by that fact, not as a loop that
    ignores steps."""
    counts = {passes for _, passes in (run[PASSES] for run in runs)}
    steps = {given for given, _ in (run[PASSES] for run in runs)}
    followed = len(steps) < 2 or len(counts) > 1 or counts == {0}
    return check(Check.STEPS_FOLLOWED, followed, "grad_history")


def graph_per_pass(call: Call) -> bool:
    """Whether no backward pass of the call started from a root node an earlier pass started
    from: each step builds y again (a y built once before the loop and backpropagated with
    retain_graph=True gives the statement's numbers, since the leaves never change)."""
    return all(not (roots & earlier) for i, roots in enumerate(call.roots) for earlier in call.roots[:i])


def recorded_uncleared(answer: object, read: dict[str, Any], call: Call, w: Value, cleared: bool,
                       label: str) -> dict[str, Any]:
    """The CHECK fact that the records are not all cleared gradients: False where the loop
    cleared w.grad between passes and every record, read from the engine's .grad, is a zero no
    backward pass wrote.  Then either the code read w.grad while it was cleared (each record
    read after that step's clearing, not before), or it read w.grad only before clearing it,
    and the records, cleared numbers, were read later from the .grad Value they kept (context
    ``kept``).  None where it cannot be told."""
    if not cleared or read.get("holds") is not True or type(answer) is not list:
        return check(Check.RECORDED_UNCLEARED, None, label)
    numbers = [g.item() if isinstance(g, Value) else g for g in answer]
    uncleared = any(num(g) != 0.0 or call.pass_wrote(g) for g in numbers)
    return {**check(Check.RECORDED_UNCLEARED, uncleared, label),
            **({} if uncleared or call.read_cleared(w) else {CONTEXT + "kept": True})}


def left_in(leaf: Value, label: str, call: Call, given: tuple[Value, Value],
            earlier: Sequence[Value] = ()) -> dict[str, Any]:
    """The GRAD fact of what the loop left in a leaf's .grad, with, as context (never compared),
    whether the student's code cleared it between two backward passes (a gradient then left
    as the last backward wrote it was cleared before each backward, not after each record),
    whether only between some of them (a clearing that stopped after a first step),
    and whether the passes wrote a leaf the student made instead of it, or (``earlier_leaf``)
    one of ``earlier``, the leaves handed to earlier calls: kept between calls, not made."""
    instead = call.wrote_instead(leaf, given)
    return {**grad_of(leaf, label), CONTEXT + "cleared_before_backward": call.cleared_between(leaf),
            CONTEXT + "cleared_some": call.cleared_some_only(leaf), CONTEXT + "new_leaf": instead,
            **({CONTEXT + "earlier_leaf": True} if instead and any(
                call.probe_wrote(v) for v in earlier if all(v is not g for g in given)) else {})}


def cleared_alike(sub: ModuleType, call: Call, w: Value, x: Value, given: list[list[Any]]) -> dict[str, Any]:
    """The CLEARED_ALIKE fact: the loop did not clear one leaf's .grad between its backward passes
    while never clearing the other's (``zero_grad([w, w])``, a slip for ``[w, x]``); as context,
    the leaf it cleared and the one it never cleared, and ``by_zero_grad`` where the loop gave the
    student's zero_grad (``given``: each call's arguments) both leaves in one list: the slip is
    then zero_grad's (an id it kept from an earlier call), not the loop's, and ``equal`` where
    zero_grad skipped the leaf as equal (==) to the other (which of them it keeps).  A loop that
    clears nothing holds."""
    leaves = {"w": w, "x": x}
    both = any(type(a) is list and any(v is w for v in a) and any(v is x for v in a)
               for args in given for a in args[:1])
    for cleared, never in (("w", "x"), ("x", "w")):
        if call.cleared_between(leaves[cleared]) and call.never_cleared(leaves[never]):
            equal = equal_skipped_in_loop(sub, leaves[cleared], leaves[never], given)
            return {**check(Check.CLEARED_ALIKE, False, "grad_history"),
                    CONTEXT + "cleared": cleared, CONTEXT + "never": never,
                    CONTEXT + "by_zero_grad": both, CONTEXT + "equal": equal}
    return check(Check.CLEARED_ALIKE, True, "grad_history")


def reset_as_flag(given: list[list[Any]], reset: str | None, w: Value) -> dict[str, Any]:
    """The RESET_AS_FLAG fact: grad_history, told reset="zero_", did not hand its reset text on to the
    student's zero_grad as set_to_none (``given``: each call's arguments) and find w.grad None after the call:
    ``zero_grad([w, x], set_to_none=reset)``, where zero_grad took the text as true; context ``~passed``,
    the text.  Judged of reset="zero_" alone: what else dropped w.grad is told by its own facts."""
    passed = next((args[1] for args in given if len(args) > 1 and type(args[1]) is str and args[1] == reset), None)
    if reset != "zero_":
        return check(Check.RESET_AS_FLAG, None, "grad_history")
    fact = check(Check.RESET_AS_FLAG, passed is None or w.grad is not None, "grad_history")
    return fact if passed is None else {**fact, CONTEXT + "passed": repr(passed)}
