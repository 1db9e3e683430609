"""ex05 accumulation: tests for gradients accumulating over steps, and clearing them with
``grad.zero_()`` or ``grad = None`` (one at a time in the loop, or through zero_grad).

The probes create the leaves and hand them to the submission, so they can see what the loop
left behind: who last wrote each .grad (backward, or an assignment), whether it was changed in
place since (zero_), whether it is still the same object, and how many backward passes ran.
The step counts include 1 and 0 (a loop that runs one step too many or too few shows).
"""

from __future__ import annotations

from typing import Any, Callable

from micrograph import Value, mul, observe
from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.appended import appended_later
from grader.spec.defaults import Earlier, default_after, default_kept
from grader.spec.facts import CONTEXT, Check
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.graph import graph_below
from grader.spec.helpers import arguments_of
from grader.spec.made_from import operands
from grader.spec.loop_facts import (PASSES, cleared_alike, graph_per_pass, hook_cleared, left_in,
                                    recorded_uncleared, reset_as_flag, steps_followed)
from grader.spec.made_untracked import told_if_made_under_no_grad
from grader.spec.origins import handed_to_hooks, read_from_grad, read_from_leaf, read_in_turn, remember
from grader.spec.probe import by_key, num, type_name
from grader.spec.provenance import check, float_of, result_of, value_of, watching
from grader.spec.repeat import calls_apart, remembered
from grader.spec.zero_grad_left import (cleared_twice, earlier_left_alone, past_no_grad, set_to_none_after,
                                        set_to_none_default, set_to_none_read, zero_grad_left)

EXERCISE = Exercise("ex05", "Gradients accumulate until cleared", module="ex05_accumulation")


_HANDED: list[Value] = []
"""Every leaf handed to grad_history in this run, kept alive (no later leaf takes its id): passes
that wrote into one of them in a later call wrote into a leaf kept between calls, not one made."""


def _leaves(w: float, x: float) -> tuple[Value, Value]:
    leaves = Value(w, requires_grad=True), Value(x, requires_grad=True)
    _HANDED.extend(leaves)
    return leaves


def _history(answer: object) -> list[Any] | str:
    if type(answer) is not list:
        return f"not a list: {type_name(answer)}"
    return [num(g) for g in answer]


def _run(sub, w: float, x: float, steps: int, reset: str | None,
         before: float | None = None, leaves: tuple[Value, Value] | None = None) -> dict[str, Any]:
    """One call of grad_history on fresh leaves (w.grad already ``before`` if given), or on the
    ``leaves`` an earlier call was given: the history, the backward passes, and the gradients
    left behind, with who wrote them."""
    wl, xl = leaves or _leaves(w, x)
    given = {"w": wl, "x": xl}
    if before is not None:
        mul(wl, before).backward()  # w.grad holds `before` when the loop starts
    held = [] if wl.grad is None else [wl.grad.item()]  # that very number, returned as read: read from w.grad
    first_pass = observe.passes() + 1
    with arguments_of(sub, "zero_grad") as cleared, \
            watching(sub, "grad_history", grad_numbers=True, clears=True, made=True) as call, \
            told_if_made_under_no_grad(call, "grad_history"), \
            told_if_grad_unwritten(call, "grad_history", given):  # y with no graph; no backward ran
        answer = sub.grad_history(wl, xl, steps, reset)
    label = "grad_history(w, x, steps, reset)"
    listed = type(answer) is list
    read = read_from_grad(answer, call, label, held)
    history = {**result_of(_history(answer), label), **handed_to_hooks(answer, call, given),
               **hook_cleared(range(first_pass, observe.passes() + 1), wl)}
    records = [[g] for g in answer[:-1] if reset is None] if listed else []
    cleared_between = call.cleared_between(wl) and reset is not None
    observed = {
        "given": [value_of(wl, "the leaf w you were given"), value_of(xl, "the leaf x you were given")],
        "history": history,
        "floats": [float_of(g, f"{label}[{i}]") for i, g in enumerate(answer)] if listed else None,
        "read": read, "leaf": read_from_leaf(answer, call, given, "w", label),
        "in_turn": read_in_turn(records, [wl], label),
        "order": recorded_uncleared(answer, read, call, wl, cleared_between, label),
        "backward": {**{(CONTEXT + k if k == "cleared_between" else k): v for k, v in call.fact.items()},
                     "by_backward": call.by_backward},  # grad() returns gradients: it writes no .grad
        "rebuilt": check(Check.GRAPH_PER_PASS, graph_per_pass(call), "grad_history"),
        "walked": graph_below(call.first_root, label="grad_history", leaves=given,  # its first y
                              detached=call.detached_inputs(given)),
        # the gradient held before the loop is added to
        # (not judged where no pass wrote into the leaves given: the leaf cleared was another)
        "start": check(Check.START_KEPT, None if before is None or not call.clears or call.wrote_instead(wl, (wl, xl))
                       else not call.clears[0], "grad_history"),
        "left": [cleared_alike(sub, call, wl, xl, cleared), reset_as_flag(cleared, reset, wl),
                 left_in(wl, "w.grad", call, (wl, xl), _HANDED), left_in(xl, "x.grad", call, (wl, xl), _HANDED)]}
    return {**observed, "hooks": appended_later(answer, [wl], label, "w"),  # last: it writes w.grad
            PASSES: (steps, call.started)}


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
    "by_text": "compare reset with ==: a str equal to 'none' asks for that reset, whichever object holds it",
    "default_after": "reset left out is reset=None whatever an earlier call passed: keep no reset between calls",
    "left": "after recording each step, clear both leaves as `reset` asks: nothing (None), "
    "w.grad.zero_() and x.grad.zero_() in place ('zero_'), or .grad = None ('none')",
}
FEEDBACK = "Run `steps` steps on the leaves given: build y, y.backward(), record w.grad, then reset."


def _history_run(w: float, x: float, steps: int) -> Callable[..., object]:
    """``run(module, *reset)``: the module's grad_history on new leaves of w and x, reset passed
    or left out, the call the probes of reset's default make on each module they compare."""
    def run(module: Any, *reset: str | None) -> object:
        return module.grad_history(*_leaves(w, x), steps, *reset)
    return run


def _reset_default(sub, w: float, x: float, steps: int) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of grad_history's reset: left out, as in the statement's
    ``grad_history(w, x, 4)``, it clears nothing (``reset=None``)."""
    run = _history_run(w, x, steps)
    return default_kept(sub, run, lambda module: run(module, None), _history,
                        N_("grad_history(w, x, steps) (reset left out)"))


def _reset_after(sub, w: float, x: float, steps: int) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of grad_history with reset left out after a call that passed 'zero_' or 'none'
    (``defaults.default_after``): a reset kept from the last call clears where the default clears nothing."""
    run = _history_run(w, x, steps)
    return default_after(sub, run, _history, N_("grad_history(w, x, steps) (reset left out)"),
                         [Earlier("grad_history", "reset", lambda module, reset=reset: run(module, reset),
                                  lambda module: run(module, None)) for reset in ("zero_", "none")])


@EXERCISE.test("gradients accumulate", points=2, public=True, feedback=FEEDBACK, key_feedback=KEYS)
def accumulate_public(sub):
    return {**by_key([_run(sub, w, x, 4, None) for w, x in [(0.5, -3.0), (2.0, 4.0)]]),
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
    cases = [(-1.5, 0.25, 1), (3.0, -2.0, 0), (0.0, 1.0, 6),
             (1 / 3, 0.1, 2)]  # gradients of many digits: one rounded (round(g, 3)) is told as rounded
    runs = [_run(sub, w, x, n, None) for w, x, n in cases]
    return {**by_key(runs), "steps": steps_followed(runs),
            "apart": calls_apart(sub, lambda m, case: m.grad_history(*_leaves(*case[:2]), case[2]),
                                 _history, (0.5, 1.0, 2), (1.5, -1.0, 3), "grad_history")}


@EXERCISE.test("other resets", points=2, feedback=FEEDBACK, key_feedback=KEYS, runs_with=WITH_ZERO_GRAD)
def resets_hidden(sub):
    cases = [(1.5, 0.5, 1, "zero_"), (4.0, -4.0, 5, "zero_"), (-1.0, 0.0, 2, "zero_"),
             (-3.0, -1.0, 1, "none"), (10.0, 0.5, 4, "none"), (2.0, 2.0, 0, "none"),
             (1.5, 1.5, 2, "zero_")]  # w and x of one value: each is cleared, not the first only
    runs = [_run(sub, w, x, n, reset) for w, x, n, reset in cases]
    return {**by_key(runs), "steps": steps_followed(runs), "by_text": _by_text(sub),
            "default_after": _reset_after(sub, 0.5, 2.0, 3)}


def _by_text(sub) -> dict[str, Any]:
    """The BY_TEXT fact of grad_history's reset: a str equal to "zero_" or "none" that is another
    object than the literal (one a caller built, read or received) records and clears as the
    literal does (``reset is "none"`` zeroes in place what "none" drops: the same records).
    Not judged where two calls with the literal answer otherwise (state kept between calls).  Each
    call's gradients are remembered: a later call returning them returns state kept, not numbers it
    computed."""
    call = remembered(sub, lambda module, given: module.grad_history(*given), "grad_history")

    def history(reset: str) -> object:  # the records, and whether the leaves' .grad were left None
        w, x = _leaves(1.5, -0.5)
        return _history(call(sub, (w, x, 2, reset))), w.grad is None, x.grad is None
    judged = [(history(reset), history("".join(list(reset))), history(reset)) for reset in ("zero_", "none")]
    alike = None if any(a != c for a, _, c in judged) else all(a == b for a, b, _ in judged)
    return {**check(Check.BY_TEXT, alike, "grad_history(w, x, steps, reset)"), CONTEXT + "option": "reset"}


@EXERCISE.test("a gradient already there before the loop", points=1, feedback=FEEDBACK,
               key_feedback=KEYS, runs_with=WITH_ZERO_GRAD)
def earlier_grad(sub):
    # the gradient there before a second call on the same leaves is the one the first call left:
    # a history kept for the leaves given (functools.lru_cache) returns the first call's again
    again = _leaves(2.5, -1.5)
    return by_key([_run(sub, 1.25, -0.5, 3, None, before=3.0),
                     _run(sub, -0.5, 6.0, 2, "zero_", before=-2.0),
                     _run(sub, 2.5, -1.5, 2, None, before=1.5, leaves=again),
                     _run(sub, 2.5, -1.5, 2, None, leaves=again)])


ZERO_GRAD_KEYS = {
    "grads": "set_to_none=True: set each .grad to None; set_to_none=False: call .grad.zero_() "
    "on each stored gradient (a leaf without one stays None)",
    "same_value": "zero_() changes the gradient in place: keep the same Value",
    "backward": "zero_grad only clears: it runs no backward",
    "earlier": "zero_grad clears the leaves it is given, and no leaf given to an earlier call",
    "default": "set_to_none left out is set_to_none=True, as in the stub's signature",
    "default_after": "set_to_none left out is set_to_none=True whatever an earlier call passed: keep no mode between calls",
}
ZERO_GRAD_FEEDBACK = "Clear the gradient of every leaf given, as set_to_none asks."
EQUAL_NOTE = N_("p, q and r of one value")  # a label's note, translated where it is shown


@EXERCISE.test("zero_grad clears every leaf", points=2, public=True, feedback=ZERO_GRAD_FEEDBACK,
               key_feedback=ZERO_GRAD_KEYS)
def zero_grad_public(sub):
    return {"flag": set_to_none_read(sub, (1.0, -2.5, 0.5)),
            "none": zero_grad_left(sub, (2.0, -1.5, 0.5), True),
            "zero_": zero_grad_left(sub, (-0.5, 3.0, 1.0), False), "past_none": past_no_grad(sub, (1.5, 0.5, -2.0)),
            "again": cleared_twice(sub, (1.5, -2.0, 0.5), False),
            "earlier": earlier_left_alone(sub, (2.5, -1.0, 0.5), False),
            "default": set_to_none_default(sub, (0.5, 1.5, -1.0))}


@EXERCISE.test("zero_grad on other leaves", points=1, feedback=ZERO_GRAD_FEEDBACK,
               key_feedback=ZERO_GRAD_KEYS)
def zero_grad_hidden(sub):
    return {"flag": set_to_none_read(sub, (-2.0, 1.5, 3.0)),
            "none": zero_grad_left(sub, (0.0, 4.0, -2.0), True),
            "zero_": zero_grad_left(sub, (1.5, 0.0, 7.0), False), "past_none": past_no_grad(sub, (-3.0, 2.5, 0.5)),
            # three distinct leaves of one value: a leaf looked up with == (`leaf in seen`) is skipped
            "equal": zero_grad_left(sub, (2.5, 2.5, 2.5), False, EQUAL_NOTE),
            "again": cleared_twice(sub, (-3.0, 0.5, 2.0), True),
            "earlier": earlier_left_alone(sub, (-1.5, 2.0, 1.0), True),
            "default_after": set_to_none_after(sub, (2.0, -0.5, 1.0))}


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
    # an input that needs no grad, which a node saved and backward freed, drawn as the Value made
    return ([w, x], {"w": w, "x": x}) if y is None else ([y], {"w": w, "x": x, "y": y}, operands(call))

