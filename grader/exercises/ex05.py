"""ex05 accumulation: tests for gradients accumulating over steps, and clearing them with
``grad.zero_()`` or ``grad = None`` (one at a time in the loop, or through zero_grad).

The probes create the leaves and hand them to the submission, so they can see what the loop
left behind: who last wrote each .grad (backward, or an assignment), whether it was changed in
place since (zero_), whether it is still the same object, and how many backward passes ran.
The step counts include 1 and 0 (a loop that runs one step too many or too few shows).
"""

from __future__ import annotations

from typing import Any

from micrograph import Value, mul, observe
from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import num, type_name
from grader.spec.origins import handed_to_hooks, read_from_grad, read_from_leaf, read_in_turn, remember
from grader.spec.appended import appended_later
from grader.spec.call import Call
from grader.spec.defaults import default_kept
from grader.spec.equal_skipped import equal_skipped_in_loop, skipped_as_equal
from grader.spec.graph import graph_below
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.helpers import arguments_of
from grader.spec.hooked import WRITES
from grader.spec.made_untracked import told_if_made_under_no_grad
from grader.spec.provenance import check, float_of, grad_of, list_kept, result_of, same_object, value_of, watching
from grader.spec.repeat import calls_apart, fresh_copy

EXERCISE = Exercise("ex05", "Gradients accumulate until cleared", module="ex05_accumulation")


def _leaves(w: float, x: float) -> tuple[Value, Value]:
    return Value(w, requires_grad=True), Value(x, requires_grad=True)


def _history(answer: object) -> list[Any] | str:
    if type(answer) is not list:
        return f"not a list: {type_name(answer)}"
    return [num(g) for g in answer]


def _run(sub, w: float, x: float, steps: int, reset: str | None,
         before: float | None = None) -> dict[str, Any]:
    """One call of grad_history on fresh leaves (w.grad already ``before`` if given): the
    history, the backward passes, and the gradients left behind, with who wrote them."""
    wl, xl = _leaves(w, x)
    if before is not None:
        mul(wl, before).backward()  # w.grad holds `before` when the loop starts
    held = [] if wl.grad is None else [wl.grad.item()]  # that very number, returned as read: read from w.grad
    first_pass = observe.passes() + 1
    with arguments_of(sub, "zero_grad") as cleared, \
            watching(sub, "grad_history", grad_numbers=True, clears=True, made=True) as call, \
            told_if_made_under_no_grad(call, "grad_history"), \
            told_if_grad_unwritten(call, "grad_history", {"w": wl, "x": xl}):  # y with no graph; no backward ran
        answer = sub.grad_history(wl, xl, steps, reset)
    label = "grad_history(w, x, steps, reset)"
    read = read_from_grad(answer, call, label, held)
    observed = {"given": [value_of(wl, "the leaf w you were given"), value_of(xl, "the leaf x you were given")],
                "history": {**result_of(_history(answer), label), **handed_to_hooks(answer, call, {"w": wl, "x": xl}),
                            **_hook_cleared(range(first_pass, observe.passes() + 1), wl)},
                "floats": [float_of(g, f"{label}[{i}]") for i, g in enumerate(answer)] if type(answer) is list else None,
                "read": read, "leaf": read_from_leaf(answer, call, {"w": wl, "x": xl}, "w", label),
                "in_turn": read_in_turn([[g] for g in answer[:-1] if reset is None] if type(answer) is list else [], [wl], label),
                "order": _recorded_uncleared(answer, read, call, wl, call.cleared_between(wl) and reset is not None, label),
                "backward": {(CONTEXT + k if k == "cleared_between" else k): v for k, v in call.fact.items()},
                "rebuilt": check(Check.GRAPH_PER_PASS, _graph_per_pass(call), "grad_history"),
                "walked": graph_below(call.first_root, label="grad_history", leaves={"w": wl, "x": xl}),  # its first y
                "start": check(Check.START_KEPT, None if before is None or not call.clears else not call.clears[0],
                               "grad_history"),  # the gradient held before the loop is added to
                "left": [_cleared_alike(sub, call, wl, xl, cleared),
                         _left(wl, "w.grad", call, (wl, xl)), _left(xl, "x.grad", call, (wl, xl))]}
    return {**observed, "hooks": appended_later(answer, [wl], label, "w"),  # last: it writes w.grad
            PASSES: (steps, call.started)}


def _hook_cleared(passes: range, w: Value) -> dict[str, Any]:
    """Context for the records (``~hook_cleared``: w): a hook of the student's cleared w.grad while
    one of the call's backward passes ran, before the pass added to it (``hooked.WRITES``), so
    that pass left w.grad holding its own gradient alone, whatever reset asked."""
    return {CONTEXT + "hook_cleared": "w"} if WRITES.hook_cleared(passes, w) else {}


PASSES = CONTEXT + "passes"  # a call's steps and the backward passes it started (compared by _steps_followed)


def _steps_followed(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The STEPS_FOLLOWED fact of a test's calls, given different step counts: False where every
    call ran the same number of passes (``for step in range(3)``, the documents' loop copied),
    which the many sentences of each call's pass count and history length only show call by call.  A
    loop that runs no backward pass at all is told by that fact, not as a loop that ignores steps."""
    counts = {passes for _, passes in (run[PASSES] for run in runs)}
    steps = {given for given, _ in (run[PASSES] for run in runs)}
    return check(Check.STEPS_FOLLOWED, len(steps) < 2 or len(counts) > 1 or counts == {0}, "grad_history")


def _graph_per_pass(call: Call) -> bool:
    """Whether no backward pass of the call started from a root node an earlier pass started
    from: each step builds y again (a y built once before the loop and backpropagated with
    retain_graph=True gives the statement's numbers, since the leaves never change)."""
    return all(not (roots & earlier) for i, roots in enumerate(call.roots) for earlier in call.roots[:i])


def _recorded_uncleared(answer: object, read: dict[str, Any], call: Call, w: Value, cleared: bool,
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


def _left(leaf: Value, label: str, call: Call, given: tuple[Value, Value]) -> dict[str, Any]:
    """The GRAD fact of what the loop left in a leaf's .grad, with, as context (never compared),
    whether the student's code cleared it between two backward passes (a gradient then left
    as the last backward wrote it was cleared before each backward, not after each record),
    whether only between some of them (a clearing that stopped after a first step),
    and whether the passes wrote a leaf the student made instead of it."""
    return {**grad_of(leaf, label), CONTEXT + "cleared_before_backward": call.cleared_between(leaf),
            CONTEXT + "cleared_some": call.cleared_some_only(leaf),
            CONTEXT + "new_leaf": call.wrote_instead(leaf, given)}


def _cleared_alike(sub, call: Call, w: Value, x: Value, given: list[list[Any]]) -> dict[str, Any]:
    """The CLEARED_ALIKE fact: the loop did not clear one leaf's .grad between its backward passes
    while never clearing the other's (``zero_grad([w, w])``, a slip for ``[w, x]``); as context,
    the leaf it cleared and the one it never cleared, and ``by_zero_grad`` where the loop gave the
    student's zero_grad (``given``: each call's arguments) both leaves in one list: the slip is
    then zero_grad's (an id it kept from an earlier call), not the loop's, and ``equal`` where
    zero_grad skipped the leaf as equal (==) to the other (which of them it keeps).  A loop that clears nothing holds."""
    leaves = {"w": w, "x": x}
    both = any(type(a) is list and any(v is w for v in a) and any(v is x for v in a)
               for args in given for a in args[:1])
    for cleared, never in (("w", "x"), ("x", "w")):
        if call.cleared_between(leaves[cleared]) and call.never_cleared(leaves[never]):
            return {**check(Check.CLEARED_ALIKE, False, "grad_history"), CONTEXT + "cleared": cleared, CONTEXT + "never": never,
                    CONTEXT + "by_zero_grad": both, CONTEXT + "equal": equal_skipped_in_loop(sub, leaves[cleared], leaves[never], given)}
    return check(Check.CLEARED_ALIKE, True, "grad_history")


def _regroup(runs: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {key: [r[key] for r in runs] for key in runs[0]}


KEYS = {
    "history": "record w.grad (as a float) after each step's backward, before clearing",
    "read": "each record is w.grad.item() read right after that step's backward, not a formula",
    "order": "record w.grad before clearing it, not after: a cleared gradient records nothing",
    "backward": "build y from the leaves you are given and call y.backward() once per step, "
    "exactly `steps` times",
    "steps": "run exactly `steps` steps: how many backward passes the loop runs follows the steps given",
    "rebuilt": "build y again in each step: one graph per step, each backpropagated once",
    "walked": "build y = (x + w) * (w + 1) from the leaves you are given: backward runs through that graph",
    "default": "reset left out is reset=None, as in the stub's signature: nothing is cleared",
    "left": "after recording each step, clear both leaves as `reset` asks: nothing (None), "
    "w.grad.zero_() and x.grad.zero_() in place ('zero_'), or .grad = None ('none')",
}
FEEDBACK = "Run `steps` steps on the leaves given: build y, y.backward(), record w.grad, then reset."


def _reset_default(sub, w: float, x: float, steps: int) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of grad_history's reset: left out, as in the statement's
    ``grad_history(w, x, 4)``, it clears nothing (``reset=None``)."""
    def run(module: Any, *reset: None) -> object:
        return module.grad_history(*_leaves(w, x), steps, *reset)
    return default_kept(sub, run, lambda module: run(module, None), _history,
                        N_("grad_history(w, x, steps) (reset left out)"))


@EXERCISE.test("gradients accumulate", points=2, public=True, feedback=FEEDBACK, key_feedback=KEYS)
def accumulate_public(sub):
    return {**_regroup([_run(sub, w, x, 4, None) for w, x in [(0.5, -3.0), (2.0, 4.0)]]),
            "default": _reset_default(sub, -1.5, 2.5, 3)}


# grad_history may clear with the student's own zero_grad: a slip there shows in its tests too.  A
# public probe names public tests only: data a public probe uses ships in the release whole.
WITH_ZERO_GRAD_PUBLIC = {"zero_grad": ("zero_grad clears every leaf",)}
WITH_ZERO_GRAD = {"zero_grad": ("zero_grad clears every leaf", "zero_grad on other leaves")}


@EXERCISE.test("zero_() every step", points=2, public=True, feedback=FEEDBACK, key_feedback=KEYS,
               runs_with=WITH_ZERO_GRAD_PUBLIC)
def zero_public(sub):
    return _run(sub, -2.5, 1.0, 3, "zero_")


@EXERCISE.test("grad = None every step", points=2, public=True, feedback=FEEDBACK,
               key_feedback=KEYS, runs_with=WITH_ZERO_GRAD_PUBLIC)
def none_public(sub):
    return _run(sub, 0.75, 2.0, 3, "none")


@EXERCISE.test("other step counts", points=2, feedback=FEEDBACK, key_feedback=KEYS)
def steps_hidden(sub):
    cases = [(-1.5, 0.25, 1), (3.0, -2.0, 0), (0.0, 1.0, 6)]
    runs = [_run(sub, w, x, n, None) for w, x, n in cases]
    return {**_regroup(runs), "steps": _steps_followed(runs),
            "apart": calls_apart(sub, lambda m, case: m.grad_history(*_leaves(*case[:2]), case[2]),
                                 _history, (0.5, 1.0, 2), (1.5, -1.0, 3), "grad_history")}


@EXERCISE.test("other resets", points=2, feedback=FEEDBACK, key_feedback=KEYS, runs_with=WITH_ZERO_GRAD)
def resets_hidden(sub):
    cases = [(1.5, 0.5, 1, "zero_"), (4.0, -4.0, 5, "zero_"), (-1.0, 0.0, 2, "zero_"),
             (-3.0, -1.0, 1, "none"), (10.0, 0.5, 4, "none"), (2.0, 2.0, 0, "none"),
             (1.5, 1.5, 2, "zero_")]  # w and x of one value: each is cleared, not the first only
    runs = [_run(sub, w, x, n, reset) for w, x, n, reset in cases]
    return {**_regroup(runs), "steps": _steps_followed(runs)}


@EXERCISE.test("a gradient already there before the loop", points=1, feedback=FEEDBACK,
               key_feedback=KEYS, runs_with=WITH_ZERO_GRAD)
def earlier_grad(sub):
    return _regroup([_run(sub, 1.25, -0.5, 3, None, before=3.0),
                     _run(sub, -0.5, 6.0, 2, "zero_", before=-2.0)])


def _backward_into(leaves: list[Value]) -> None:
    """A backward pass that gives the first and the last of the three leaves a gradient and the
    middle one none: a loop that skips the last leaf, or stops at the first without a
    gradient, leaves a gradient behind."""
    p, _q, r = leaves
    (p * r + p).backward()


def _with_grads(values: tuple[float, float, float]) -> tuple[list[Value], Value]:
    leaves = [Value(v, requires_grad=True) for v in values]
    _backward_into(leaves)  # p and r get gradients, q none
    return leaves, leaves[0].grad


def _zero_grad(sub, values: tuple[float, float, float], set_to_none: bool, note: str = "") -> dict[str, Any]:
    """zero_grad on three new leaves p, q, r holding ``values`` (p and r with a gradient), each
    .grad labelled with the case's ``note``, if any ("p.grad (p, q and r of one value)").  Whether
    p.grad is still the Value it was is judged where it is zeroed in place: set_to_none=True
    leaves None, and a .grad kept there is told as the gradient backward wrote, not as an object;
    where it set p.grad to None, the Value p.grad held is left as it was (a caller may still hold
    it), not zeroed first."""
    leaves, before = _with_grads(values)
    given, number, held = list(leaves), before.item(), [v.grad is not None for v in leaves]  # the list passed: only read
    with watching(sub, "zero_grad") as call:
        sub.zero_grad(given, set_to_none=set_to_none)
    skipped = skipped_as_equal(sub, leaves, held, lambda: _with_grads((-0.5, 3.0, 1.0))[0], set_to_none)  # ==, not is
    dropped = before.item() == number if leaves[0].grad is None else None  # judged where it set p.grad to None
    same = ({"dropped": check(Check.DROPPED_KEPT, dropped, "zero_grad(leaves, set_to_none=True)")}
            if set_to_none else {"same_value": same_object(leaves[0].grad, before, "p.grad after zero_grad",
                                                           "p.grad before zero_grad")})
    return {"grads": [{**grad_of(v, f"{n}.grad ({note})" if note else f"{n}.grad"),
                       **skipped.get(n, {})} for v, n in zip(leaves, "pqr")],
            **same, "backward": call.fact, "list": list_kept(given, leaves, "zero_grad", "leaves")}


def _set_to_none_read(sub, values: tuple[float, float, float]) -> dict[str, Any]:
    """The CHECK fact: zero_grad with set_to_none=True and with False, each on new leaves
    holding gradients, does not clear them as the other value of the flag asks (zeros left in
    place by True and None left by False: the flag read the other way round)."""
    left = {}
    for set_to_none in (True, False):
        leaves, _ = _with_grads(values)
        sub.zero_grad(list(leaves), set_to_none=set_to_none)
        left[set_to_none] = [_cleared_as(leaf.grad) for leaf in leaves[::2]]  # q holds no gradient
    swapped = left[True] == ["zero", "zero"] and left[False] == ["none", "none"]
    return check(Check.SET_TO_NONE_READ, not swapped, "zero_grad")


def _past_no_grad(sub, values: tuple[float, float, float]) -> dict[str, Any]:
    """The PAST_NO_GRAD fact: zero_grad(set_to_none=False) on p, q, r (q without a gradient)
    given in three orders, q in the middle, first and last, does not zero exactly the leaves
    before q every time: a loop that stops at q (``break`` where ``continue`` is meant) does, and
    no other slip (the last leaf skipped, the first zeroed only) does in all three orders."""
    stopped = []
    for order in ((0, 1, 2), (1, 0, 2), (0, 2, 1)):
        leaves, _ = _with_grads(values)
        sub.zero_grad([leaves[i] for i in order], set_to_none=False)
        left = [_cleared_as(leaves[i].grad) for i in order]
        at = order.index(1)  # where q, the leaf without a gradient, was given
        stopped.append(all(c == "zero" for c in left[:at]) and all(c == "kept" for c in left[at + 1:]))
    return check(Check.PAST_NO_GRAD, not all(stopped), "zero_grad(leaves, set_to_none=False)")


def _cleared_twice(sub, values: tuple[float, float, float], set_to_none: bool) -> list[dict[str, Any]]:
    """zero_grad called twice on new leaves, a backward before each, in the student's module
    and in a fresh import of their file: whether the second call leaves each .grad as the first
    did (None, zero, or kept), and whether both calls do what they do in the fresh import (a
    file that cannot be imported again, or a second call told already, is not held against it).  A
    record of the leaves cleared before, kept between calls, shows in one or the other: by
    object, the second call skips; by id or by value, a new leaf that shares either with an
    earlier one is skipped."""
    left = _twice(sub, values, set_to_none)
    fresh = fresh_copy(sub)
    alone = None if fresh is None else _twice(fresh, values, set_to_none)
    second_alike = left[0] == left[1]  # told first: the fresh import is asked only then
    return [check(Check.SAME_SECOND_TIME, second_alike, "zero_grad"),
            check(Check.SAME_FRESH_EFFECT, alone is None or not second_alike or left == alone, "zero_grad")]


def _twice(module, values: tuple[float, float, float], set_to_none: bool) -> list[list[str]]:
    leaves = [Value(v, requires_grad=True) for v in values]
    left = []
    for _ in range(2):
        _backward_into(leaves)
        module.zero_grad(list(leaves), set_to_none=set_to_none)
        left.append([_cleared_as(leaf.grad) for leaf in leaves])
    return left


def _earlier_left_alone(sub, values: tuple[float, float, float], set_to_none: bool) -> dict[str, Any]:
    """zero_grad called on leaves p, q, r, then, once p and r hold new gradients, on three new
    leaves: whether the second call left p's, q's and r's .grad as they were (the same object
    holding the same number).  A record of every leaf ever given, kept between calls and
    cleared whole, reaches the first call's leaves."""
    first = [Value(v, requires_grad=True) for v in values]
    second = [Value(v + 0.5, requires_grad=True) for v in values]
    for leaves in (first, second):
        _backward_into(leaves)
    sub.zero_grad(list(first), set_to_none=set_to_none)
    _backward_into(first)
    held = [(leaf.grad, None if leaf.grad is None else leaf.grad.item()) for leaf in first]
    sub.zero_grad(list(second), set_to_none=set_to_none)
    alone = all(leaf.grad is grad and (grad is None or grad.item() == number)
                for leaf, (grad, number) in zip(first, held))
    return {**check(Check.EARLIER_KEPT, alone, "zero_grad"), CONTEXT + "leaves": True}


def _set_to_none_default(sub, values: tuple[float, float, float]) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of zero_grad's set_to_none: left out, it drops the gradients, as
    the stub's ``set_to_none=True`` (and PyTorch's optimizer.zero_grad()) does."""
    def run(module: Any, **flag: bool) -> list[str]:
        leaves, _ = _with_grads(values)
        module.zero_grad(list(leaves), **flag)
        return [_cleared_as(leaf.grad) for leaf in leaves]
    return default_kept(sub, run, lambda module: run(module, set_to_none=True), list,
                        f"zero_grad(leaves) ({N_('set_to_none left out')})")


def _cleared_as(grad: object) -> str:
    """What a clearing left in a .grad: nothing, a zero, or another number (kept)."""
    if grad is None:
        return "none"
    return "zero" if type(grad) is Value and grad.item() == 0.0 else "kept"


ZERO_GRAD_KEYS = {
    "grads": "set_to_none=True: set each .grad to None; set_to_none=False: call .grad.zero_() "
    "on each stored gradient (a leaf without one stays None)",
    "same_value": "zero_() changes the gradient in place: keep the same Value",
    "backward": "zero_grad only clears: it runs no backward",
    "earlier": "zero_grad clears the leaves it is given, and no leaf given to an earlier call",
    "default": "set_to_none left out is set_to_none=True, as in the stub's signature",
}
ZERO_GRAD_FEEDBACK = "Clear the gradient of every leaf given, as set_to_none asks."
EQUAL_NOTE = N_("p, q and r of one value")  # a label's note, translated where it is shown


@EXERCISE.test("zero_grad clears every leaf", points=2, public=True, feedback=ZERO_GRAD_FEEDBACK,
               key_feedback=ZERO_GRAD_KEYS)
def zero_grad_public(sub):
    return {"flag": _set_to_none_read(sub, (1.0, -2.5, 0.5)),
            "none": _zero_grad(sub, (2.0, -1.5, 0.5), True),
            "zero_": _zero_grad(sub, (-0.5, 3.0, 1.0), False), "past_none": _past_no_grad(sub, (1.5, 0.5, -2.0)),
            "again": _cleared_twice(sub, (1.5, -2.0, 0.5), False),
            "earlier": _earlier_left_alone(sub, (2.5, -1.0, 0.5), False),
            "default": _set_to_none_default(sub, (0.5, 1.5, -1.0))}


@EXERCISE.test("zero_grad on other leaves", points=1, feedback=ZERO_GRAD_FEEDBACK,
               key_feedback=ZERO_GRAD_KEYS)
def zero_grad_hidden(sub):
    return {"flag": _set_to_none_read(sub, (-2.0, 1.5, 3.0)),
            "none": _zero_grad(sub, (0.0, 4.0, -2.0), True),
            "zero_": _zero_grad(sub, (1.5, 0.0, 7.0), False), "past_none": _past_no_grad(sub, (-3.0, 2.5, 0.5)),
            # three distinct leaves of one value: a leaf looked up with == (`leaf in seen`) is skipped
            "equal": _zero_grad(sub, (2.5, 2.5, 2.5), False, EQUAL_NOTE),
            "again": _cleared_twice(sub, (-3.0, 0.5, 2.0), True),
            "earlier": _earlier_left_alone(sub, (-1.5, 2.0, 1.0), True)}


@EXERCISE.diagram
def draw(sub):
    # The graph the loop's last backward ran from, as the student's code built it, with the
    # leaves after three accumulating steps (their .grad is three steps' worth); the leaves
    # alone if no backward ran from a Value of the loop's.
    w, x = _leaves(0.5, -3.0)
    with watching(sub, "grad_history", grad_numbers=True, made=True) as call:  # the diagram runs first:
        sub.grad_history(w, x, 3)
    remember(call)  # a later test's call that returns these numbers returns kept state
    y = call.last_root()
    return ([w, x], {"w": w, "x": x}) if y is None else ([y], {"w": w, "x": x, "y": y})

