"""ex09 no_grad: inference, the gradient-descent step, and set_grad_enabled.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
The probes make the leaves and loss functions for ``sgd_step`` themselves, so they can watch the
very object the student must update.  They observe how each result came about: whether grad mode
was off while the student's code ran (and whether it was left off), the graph behind y and whether
any Value y was made from was recorded, who wrote ``w.grad`` and how many backward passes ran,
whether w was changed in place (its version counter) and is still the object given, and whether the
returned error was raised by the engine.  ``watching`` restores grad mode after each call, so a
submission that leaves recording switched off loses the test that checks for it, not every test
after it.  ``inference`` is called again on other inputs and on the first ones once more
(``grader.spec.repeat``): leaves kept between calls show; ``sgd_step`` is watched with the leaf it
was given (``grader.spec.sgd_stepped``), so a gradient of the step before that was never cleared
shows, and is called again on a fresh leaf of another loss and then of the first once more, in the
public test too: a step that carries something (a velocity, a count, the first learning rate, the
first leaf, a loss returned again) from call to call shows.  So is ``step_without_no_grad``, in its
hidden test."""

from typing import Any, Callable

import micrograph
from micrograph import Value
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec import Exercise
from grader.spec.caller_grads import kept_through
from grader.spec.graph import graph
from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import by_key, num, shape_error
from grader.spec.origins import made_by_op, made_from, read_on_the_way, unrecorded_on_the_way
from grader.spec.errors import error_of
from grader.spec.refused import changed_untracked, refused_given
from grader.spec.given_untracked import ModeNoted
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.one_leaf import leaf_per_name
from grader.spec.provenance import check, grad_of, retains_as_context, value_of, watching
from grader.spec.inputs_again import leaf_stepped_apart
from grader.spec.repeat import Returned, calls_apart, seen_all
from grader.spec.seen import RETURNED
from grader.spec.sgd_stepped import watched_steps

EXERCISE = Exercise("ex09", "no_grad: computing without a graph", module="ex09_no_grad")

# Losses for sgd_step: (starting w, loss as a function of w, learning rate).
LOSSES = [
    (-1.0, lambda w: (w - 2) ** 2, 0.1),
    (0.5, lambda w: (w + 3.0) * (w + 1), 0.05),
    (1.5, lambda w: (w * 0.5).exp() - w, 0.25),
    (0.0, lambda w: w * w + w, 0.5),  # w = 0: a formula that forgets a term still moves w
]


def _fields(r: object, keys: set[str], function: str) -> dict[str, Any]:
    if type(r) is not dict or not keys <= set(r):
        shape = ", ".join(f'"{key}": ...' for key in sorted(keys))  # code: read in any language
        raise shape_error(f"{function} must return {{{shape}}}", function, r)
    return r


_LEAVES_RETURNED = {
    "w": Returned(N_("the w inference returned"), N_("the w an earlier call of inference returned")),
    "x": Returned(N_("the x inference returned"), N_("the x an earlier call of inference returned")),
    "y": Returned(N_("the y inference returned"), N_("the y an earlier call of inference returned")),
}
"""Every Value inference returned in this run: the statement makes new ones at each call, and a
leaf or a result cached on the inputs (a mutable default, lru_cache) is told by its identity."""


def _inference(sub, w: float, x: float, outer: Callable[[], Any] = micrograph.enable_grad) -> dict[str, Any]:
    """One call of inference, made inside ``with outer():`` (under no_grad, an evaluation loop's
    call: the mode inference leaves is the caller's again, off)."""
    label = "inference" if outer is micrograph.enable_grad else f"with {outer.__name__}(): inference(w, x)"
    with outer(), watching(sub, label, grad_mode=True, made=True) as call:
        r = _fields(sub.inference(w, x), {"w", "x", "y"}, "inference")
    if any(returned.earlier(r[name]) for name, returned in _LEAVES_RETURNED.items()):
        # an earlier call's result returned again (a cache): how this call made y, and its grad
        # mode, say nothing of the code that made it; the identity facts tell what happened
        made = [check(which, None, "y") for which in (Check.MADE_BY_OP, Check.MADE_FROM, Check.UNRECORDED_ON_THE_WAY)]
        fact = {k: v for k, v in call.fact.items() if not k.startswith("grad_mode")}
    else:
        made = [made_by_op(r["y"], call, "y"), made_from(r["y"], (r["w"], r["x"]), call, "y"),
                unrecorded_on_the_way(r["y"], call, "y")]
        fact = call.fact
    return {"y": [value_of(r["y"], "y"), *made],
            "inputs": [value_of(r["w"], "w"), value_of(r["x"], "x")],
            "leaves": leaf_per_name({"w": r["w"], "x": r["x"]}, label, read_on_the_way(r["y"], call)),
            "new": [returned.new(r[name]) for name, returned in _LEAVES_RETURNED.items()],
            "call": fact}


INFERENCE_FEEDBACK = ("Make leaves w and x that require grad, then compute y from them inside "
                      "`with micrograph.no_grad():`.")
INFERENCE_KEYS = {
    "y": "y is computed from w and x with the engine's operations, under no_grad: not recorded",
    "inputs": "w and x are leaves that require grad: no_grad changes what is recorded, not them",
    "call": "compute y inside a `with micrograph.no_grad():` block: recording is off inside it "
    "and, after it, what it was before",
}


@EXERCISE.test("inference records nothing", points=2, public=True, feedback=INFERENCE_FEEDBACK,
               key_feedback=INFERENCE_KEYS)
def inference_public(sub):
    return {**by_key([_inference(sub, w, x) for w, x in [(0.5, -1.5), (2.0, 0.25)]]
                     + [_inference(sub, -1.0, 1.5, micrograph.no_grad)]),
            "apart": calls_apart(sub, lambda m, point: m.inference(*point), _numbers,
                                 (0.5, -1.5), (2.0, 0.25), "inference")}


@EXERCISE.test("inference on other inputs", points=2, feedback=INFERENCE_FEEDBACK,
               key_feedback=INFERENCE_KEYS)
def inference_hidden(sub):
    points = [(-2.5, 1.0), (3.0, 0.5), (0.0, 0.0), (-2.5, 1.0)]  # the last again: new leaves
    return {**by_key([_inference(sub, w, x) for w, x in points] + [_inference(sub, 1.0, -2.0, micrograph.no_grad)]),
            "apart": calls_apart(sub, lambda m, point: m.inference(*point), _numbers,
                                 (1.25, -0.5), (-4.0, 2.0), "inference")}


def _numbers(r: object) -> list[Any] | str:
    """The numbers of inference's w, x and y."""
    if type(r) is not dict or not {"w", "x", "y"} <= set(r):
        return "not the dict asked for"
    return [num(r[k]) for k in ("w", "x", "y")]


STEP_FEEDBACK = ("Clear w.grad, compute the loss, backpropagate once, then `w -= lr * w.grad` "
                 "inside no_grad; return the loss.")
STEP_KEYS = {
    "loss": "return the loss Value computed from w before the update",
    "grad": "w.grad holds d(loss)/dw from this step's backward: clear it first, and let "
    "backward write it",
    "w": "change the w you were given in place (w -= ...), under no_grad: it stays a leaf that "
    "requires grad, and its version counter counts each step",
    "call": "one backward per step, and the update inside `with micrograph.no_grad():`",
}


@EXERCISE.test("a gradient step under no_grad", points=2, public=True, feedback=STEP_FEEDBACK,
               key_feedback=STEP_KEYS)
def step_public(sub):
    return {**watched_steps(sub, LOSSES[:2], 2),
            "apart": calls_apart(sub, lambda m, i: _fresh_step(m, *LOSSES[i]), _stepped, 0, 1,
                                 "sgd_step")}


@EXERCISE.test("the step changes the leaf in place", points=1, feedback=STEP_FEEDBACK,
               key_feedback=STEP_KEYS)
def step_in_place(sub):
    return watched_steps(sub, LOSSES, 1)


@EXERCISE.test("three steps descend", points=2, feedback=STEP_FEEDBACK, key_feedback=STEP_KEYS)
def three_steps(sub):
    return {**watched_steps(sub, LOSSES[1:], 3),
            "apart": calls_apart(sub, lambda m, i: _fresh_step(m, *LOSSES[i]), _stepped, 0, 2,
                                 "sgd_step"), "same_leaf": _again_on_one_leaf(sub, "sgd_step")}


def _again_on_one_leaf(sub, function: str) -> dict[str, Any]:
    """Two calls of ``function`` (sgd_step, step_without_no_grad) on one leaf with the very same loss_fn
    and lr, as a training loop makes them: the ANEW_ON_OBJECT fact, which fails where the second returned
    what the first returned, the loss or the error (a step kept by its arguments, functools.lru_cache:
    the second call runs nothing, no backward, no step)."""
    start, loss_fn, lr = LOSSES[2]
    w = Value(start, requires_grad=True)
    step = getattr(sub, function)
    with micrograph.enable_grad():
        first = step(w, loss_fn, lr)
        second = step(w, loss_fn, lr)
    again = first is not None and first is not w and second is first
    return {**check(Check.ANEW_ON_OBJECT, not again, function), CONTEXT + "object": "w"}


def _fresh_step(sub, start: float, loss_fn: Callable[[Value], Value], lr: float) -> tuple[Value, Any]:
    """One sgd_step on a new leaf, with grad mode on, as a program calls it (an earlier step that left
    it off is told by that step's own fact, not again by this call): the leaf and the loss returned."""
    w = Value(start, requires_grad=True)
    with micrograph.enable_grad():
        return w, sub.sgd_step(w, loss_fn, lr)


def _stepped(result: tuple[Value, Any]) -> dict[str, Any]:
    """The numbers of a step's leaf and, apart, of the loss it returned (only w's move may differ)."""
    w, loss = result
    return {"w": num(w), RETURNED: num(loss)}


def _refused(sub, start: float, loss_fn: Callable[[Value], Value], lr: float) -> dict:
    """One step_without_no_grad on a new leaf: the error it returned, w and w.grad after it, and
    whether it called the loss_fn it was given (``~returns_error``: it returns no loss to tell by)."""
    micrograph.set_grad_enabled(True)  # as a program calls it (see watched_steps)
    w = Value(start, requires_grad=True)
    given = ModeNoted(loss_fn)
    with watching(sub, "step_without_no_grad") as call, told_if_grad_unwritten(call, "step_without_no_grad", {"w": w}):
        e = sub.step_without_no_grad(w, given, lr)
    seen = value_of(w, "w")  # its number and its version as the call left them: why no error was caught, if none
    unchanged = {CONTEXT + "leaf_unchanged": seen["version"] == 0 and seen["data"] == start, **changed_untracked(w, call)}
    return {"error": {**error_of(e, "the error returned", call), **unchanged},
            "w": [value_of(w, "w", call), grad_of(w, "w.grad")],
            "call": [call.fact, {**check(Check.LOSS_FN_CALLED, bool(given.modes), "step_without_no_grad"),
                                 CONTEXT + "returns_error": True}],
            "tried": refused_given(e, w, "step_without_no_grad")}


REFUSED_FEEDBACK = ("Backpropagate, then try `w -= lr * w.grad` outside no_grad and return the "
                    "RuntimeError the engine raises.")
REFUSED_KEYS = {
    "error": "outside no_grad, w -= ... is an in-place change of a leaf that requires grad: "
    "catch the RuntimeError the engine raises and return it",
    "w": "the refused update leaves w as it was, with the gradient backward wrote",
    "call": "compute the loss and call backward once, as in sgd_step",
    "tried": "the error to return is the one the update of the w given raises",
}


@EXERCISE.test("without no_grad the step is refused", points=1, public=True,
               feedback=REFUSED_FEEDBACK, key_feedback=REFUSED_KEYS)
def refused_public(sub):
    return by_key([_refused(sub, s, f, lr) for s, f, lr in LOSSES[:1]])


@EXERCISE.test("without no_grad the step raises", points=2, feedback=REFUSED_FEEDBACK,
               key_feedback=REFUSED_KEYS)
def refused_hidden(sub):
    return {**by_key([_refused(sub, s, f, lr) for s, f, lr in LOSSES[1:]]),
            "apart": calls_apart(sub, lambda m, i: _fresh_refused(m, *LOSSES[i]), seen_all, 1, 2,
                                 "step_without_no_grad"), "same_leaf": _again_on_one_leaf(sub, "step_without_no_grad")}


def _fresh_refused(sub, start: float, loss_fn: Callable[[Value], Value], lr: float) -> tuple[Value, Any]:
    """One step_without_no_grad on a new leaf, with grad mode on (as ``_fresh_step``): the leaf and the error returned."""
    w = Value(start, requires_grad=True)
    with micrograph.enable_grad():
        return w, sub.step_without_no_grad(w, loss_fn, lr)


def _forward(sub, outer: Callable[[], Any], training: bool, w: float, x: float) -> dict:
    leaf = Value(w, requires_grad=True)
    with outer():  # the call named with its flag: its grad mode is told apart from the other calls'
        with watching(sub, f"forward(w, x, {training})", grad_mode=True, made=True) as call:
            y = sub.forward(leaf, x, training)
        mode_after = micrograph.is_grad_enabled()
    label = f"with {outer.__name__}(): y = forward(w, x, {training})"  # code: read in any language
    return {"w": value_of(leaf, f"the w given to forward(w, x, {training})"),  # its flag left as the caller set it
            "y": [retains_as_context(value_of(y, label)), graph(y, {"w": leaf}, label=label), made_by_op(y, call, label),
                  made_from(y, (leaf,), call, label)],
            "mode": [call.fact, mode_after], "recorded": isinstance(y, Value) and y.grad_fn is not None}


def _forwards(sub, cases: list[tuple[Callable[[], Any], bool, float, float]]) -> dict:
    """``_forward`` on each case (the mode around the call, training, w, x), by key, with the CHECK
    fact beside each y whose call had a mode around it other than training that it is not
    recorded as that mode decides: False there when every y of the test is recorded exactly
    where grad mode was on around its call (y computed under the caller's mode, whatever
    training said; one y alike is no pattern of the code)."""
    runs = [_forward(sub, *case) for case in cases]
    around = [case[0] is micrograph.enable_grad for case in cases]
    caller = all(run.pop("recorded") == on for run, on in zip(runs, around))
    for run, on, case in zip(runs, around, cases):
        if on != case[1]:
            run["y"].append(check(Check.MODE_FROM_TRAINING, not caller, run["y"][0]["label"]))
    return by_key(runs)


FORWARD_FEEDBACK = "Compute y inside `with micrograph.set_grad_enabled(training):`."
FORWARD_KEYS = {
    "w": "forward leaves the w it is given as it was: grad mode, not w's requires_grad, decides what is recorded",
    "y": "y is recorded exactly when training is True, whatever the mode around the call: "
    "compute it from w and x with the engine's operations",
    "mode": "the grad mode is what training says inside the call, and what it was before "
    "after the call: use the with-block form",
    "held": "forward leaves w.grad as the caller left it: a gradient accumulated there before the call stays",
}


@EXERCISE.test("set_grad_enabled on one input", points=1, public=True,
               feedback=FORWARD_FEEDBACK, key_feedback=FORWARD_KEYS)
def forward_public(sub):
    return {**_forwards(sub, [(micrograph.enable_grad, True, 0.75, 2.0), (micrograph.no_grad, True, -1.0, 0.5),
                              (micrograph.enable_grad, False, 0.75, 2.0)]),
            "apart": calls_apart(sub, _forwarded, _forward_seen, (0.75, 2.0, True), (-1.0, 0.5, False),
                                 "forward")}


def _forwarded(sub, case: tuple[float, float, bool]) -> tuple[Any, Value]:
    """forward on a new leaf w (grad mode on around it): what it returned, and that w."""
    w = Value(case[0], requires_grad=True)
    with micrograph.enable_grad():
        return sub.forward(w, case[1], case[2]), w


def _forward_seen(made: tuple[Any, Value]) -> dict[str, Any]:
    """The graph of the y forward returned, its leaf named if it is the w of that call."""
    return graph(made[0], {"w": made[1]}, label="y")


@EXERCISE.test("set_grad_enabled switches recording", points=2, feedback=FORWARD_FEEDBACK,
               key_feedback=FORWARD_KEYS)
def forward_hidden(sub):
    return {**_forwards(sub, [(outer, training, w, x) for outer in (micrograph.enable_grad, micrograph.no_grad)
                              for training, (w, x) in [(True, (1.5, -0.5)), (False, (-2.0, 4.0)), (True, (0.0, 0.0))]]),
            "apart": calls_apart(sub, _forwarded, _forward_seen, (1.5, -0.5, False), (-2.0, 4.0, True), "forward"),
            "stepped": leaf_stepped_apart(sub, _forward_on_leaf, _forward_seen, 1.25, "forward"),
            "held": [kept_through(f"forward(w, x, {t})", {"w": w}, lambda w=w, t=t: sub.forward(w, 3.0, t))
                     for t in (True, False) for w in [Value(-0.5, requires_grad=True)]]}


def _forward_on_leaf(sub, w: Value) -> tuple[Any, Value]:
    """forward(w, 2.0, True) on the leaf w, with grad mode on (as ``_forwarded``): what it returned, and w."""
    with micrograph.enable_grad():
        return sub.forward(w, 2.0, True), w


@EXERCISE.diagram
def draw(sub):
    w = Value(1.5, requires_grad=True)
    trained, evaluated = sub.forward(w, -0.5, True), sub.forward(w, -0.5, False)
    for y in (trained, evaluated):  # nothing to draw: say what forward returned (its tests say it too)
        if not isinstance(y, Value):
            raise shape_error(N_("forward must return y, the Value it computed"), "forward", y)
    return [trained, evaluated], {"w": w, "y (training)": trained, "y (evaluation)": evaluated}
