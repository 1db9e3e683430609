"""ex14 custom_function: tests for two hand-written Functions, Softplus and Clip: values,
gradients, node names, gradcheck, and what save_for_backward brings, on inputs not in the
exercise text, Clip's bounds included (x equal to low or high passes the gradient, as
torch.clamp's).  What was saved is observed on the node itself: whether it saved anything
(a GRAPH fact: kept, freed by backward, or nothing), whether a second backward raised (ERROR
facts), whether the value saved is the very x forward was given, and who wrote x.grad.  Inside a
bigger graph the incoming gradient is not 1, so a backward that ignores it shows on a public
test, where the output seeded with two gradients (``grader.spec.seeds.scales``) says so.  An error raised by the
student's forward or backward is told as raised, with its line."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any, Callable

from micrograph import Value, gradcheck  # bound now, before the submission is imported
from micrograph.i18n import N_  # a case note of a label, translated where it is shown

from grader.spec import Exercise, caller_grads
from grader.spec.applied import apply_told_in
from grader.spec.custom import (backward_again, clip_second, decided_in_backward, grad_in_kept, input_kept, input_number_kept, returned_input, returned_none, saved_read,
                                second_derivative, second_through_grad)
from grader.spec.custom_calls_apart import applies_apart, second_after_backward, stepped_apart
from grader.spec.custom_graphs import at_a_freed_leaf, at_freed_leaves, beside_later, composed, equal_inputs, two_clips
from grader.spec.graph import graph
from grader.spec.probe import by_key, grad_fn, num, show, type_name
from grader.spec.errors import error_raised
from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check, grad_of, result_of, same_object
from grader.spec.seeds import in_proportion, scales

EXERCISE = Exercise("ex14", "A custom Function with save_for_backward", module="ex14_custom_function")

SOFTPLUS_AT = (-2.5, -0.3, 0.0, 1.7, 4.0)
# (x, low, high): inside, below, above the interval, and a wider interval
CLIP_AT = ((0.25, -1.0, 1.0), (-3.0, -1.0, 1.0), (2.5, -1.0, 1.0), (-0.75, -2.0, 0.5), (1.25, 0.0, 3.0))
# x on a bound: the gradient passes (low <= x <= high, as torch.clamp's); a strict test drops it
CLIP_ON_BOUNDS = ((-1.0, -1.0, 1.0), (1.0, -1.0, 1.0))
CLIP_ON_OTHER_BOUNDS = ((0.0, 0.0, 3.0), (0.5, -0.5, 0.5), (-2.0, -2.0, 0.5))


_APPLY_TOLD = apply_told_in(("Softplus", "Clip"))
"""Every test's calls of the Functions' apply: what forward marked on ctx is told where apply met it."""


def _run(make: Callable[[Value], Any], x: float, call: str, case: str = "") -> dict[str, Any]:
    """y = make(leaf), then one backward: y's data and grad_fn, and the leaf's gradient (who
    wrote it: the engine's backward through the student's node), labelled with the ``call`` the
    probe made (``Softplus.apply(x)``, ``Clip.apply(x, low, high)``): the feedback says which of
    the two differs, and with ``case`` (where x sits against Clip's interval) at which boundary."""
    leaf = Value(x, requires_grad=True)
    held = caller_grads.hold({"x": leaf}, give=False)  # x's flag as the caller set it
    y = make(leaf)  # an error is the student's own, told with its line
    note, name = f" ({case})" if case else "", call.partition(".")[0]  # forward: a new Value, x and its flag kept
    kept = [input_number_kept(f"{name}.forward{note}", leaf, x), caller_grads.kept(held, f"{name}.forward{note}")]
    if not isinstance(y, Value):  # told once, as what apply returned: nothing else to observe
        kind = f"not a Value: {type_name(y)}"
        return {"input": kept, "data": result_of(kind, f"{call}{note}"), "grad_fn": kind, "grad": kind}
    observed = {"input": kept, "data": result_of(num(y), f"{call}{note}"),
                "grad_fn": result_of(grad_fn(y), f"{call}.grad_fn")}
    y.backward()
    observed["grad"] = {**grad_of(leaf, f"x.grad through {name}.backward{note}"), **returned_none(y, leaf, name)}
    observed["grad"][CONTEXT + "in_proportion"] = in_proportion(make, x)
    return observed


def _sign(x: float) -> str:
    """Where x sits against 0: a softplus written for one side (a "stable" form with a sign
    slip, a relu branch) differs on the other only."""
    return "x < 0" if x < 0 else "x = 0" if x == 0 else "x > 0"


def _against(x: float, low: float, high: float) -> str:
    """Where x sits against Clip's interval [low, high]: the statement's boundaries are its ends."""
    if x == low or x == high:
        return "x = low" if x == low else "x = high"
    return "x < low" if x < low else "x > high" if x > high else "low < x < high"


def _gradcheck(fn: Callable[..., Any], label: str, *xs: float) -> dict[str, Any]:
    """Whether gradcheck passes on ``fn`` at ``xs``, as a RESULT fact labelled ``label`` (the
    call, without its numbers).  An error the student's Function raises is the test's error,
    told with its line as in every other test."""
    inputs = [Value(x, requires_grad=True) for x in xs]
    return result_of(gradcheck(fn, inputs, raise_exception=False), label)


def _scaling(sub) -> list[dict[str, Any]]:
    """``scales`` of both Functions, at an x where each passes a gradient."""
    return [scales(sub.Softplus.apply, 0.7, "Softplus"),
            scales(lambda v: sub.Clip.apply(v, -1.0, 1.0), 0.25, "Clip")]


INPUT_FEEDBACK = "forward returns a new Value computed from x, and leaves x itself as it was"


def _ops(sub) -> dict[str, Callable[[Value], Any]]:
    """The two Functions as one-argument ops, with fixed bounds for Clip."""
    return {"Softplus": sub.Softplus.apply, "Clip": lambda v: sub.Clip.apply(v, -1.0, 1.0)}


@EXERCISE.test(
    "Softplus values, node and gradient",
    points=2,
    public=True,
    feedback="forward returns log(1 + exp(x)) as a Value; backward returns grad times sigmoid(x).",
    key_feedback={
        "input": INPUT_FEEDBACK,
        "data": "forward must return log(1 + exp(x)), computed from x with Value ops",
        "grad_fn": "call Softplus.apply(x), which makes the node SoftplusBackward; keep the "
        "class name Softplus",
        "grad": "backward returns grad * sigmoid(x), x read from ctx.saved_tensors",
    },
)
@_APPLY_TOLD
def softplus_values(sub):
    runs = [_run(sub.Softplus.apply, x, "Softplus.apply(x)", _sign(x)) for x in SOFTPLUS_AT]
    return {**{key: [r[key] for r in runs] for key in ("input", "data", "grad_fn", "grad")},
            "stepped": stepped_apart(sub, 0.9)}


@EXERCISE.test("Softplus passes gradcheck", points=1,
               feedback="backward must agree with finite differences: d softplus(x)/dx = sigmoid(x), "
               "times the incoming gradient, for one argument.")
@_APPLY_TOLD
def softplus_gradcheck(sub):
    checks = [_gradcheck(sub.Softplus.apply, f"gradcheck(Softplus.apply, [x]) ({_sign(x)})", x)
              for x in (-1.7, 0.4, 2.2)]
    checks.append(_gradcheck(lambda a, b: sub.Softplus.apply(a * b) * a,
                             "gradcheck(lambda a, b: Softplus.apply(a * b) * a, [a, b])", 0.6, -1.3))
    return [*checks, scales(sub.Softplus.apply, -0.4, "Softplus"), *stepped_apart(sub, -1.4)]


# Far below 0 sigmoid(x) is tiny: a difference quotient's rounding, about 1e-16 / h, is no longer
# small beside it, where any formula for sigmoid(x) keeps its digits (its absolute error ~1e-16).
SOFTPLUS_FAR_BELOW = (-8.5, -12.5)
FAR_BELOW = N_("x far below 0")
# Far above 0 sigmoid'(x) is tiny: a difference quotient of Value ops, differentiated again,
# loses its digits there the same way.
SOFTPLUS_FAR_ABOVE = 8.5


@EXERCISE.test("Softplus's gradient far from 0", points=1,
               feedback="backward returns grad times sigmoid(x) itself, also far below 0 where sigmoid(x) "
               "is tiny: a difference quotient (f(x + h) - f(x - h)) / 2h only approximates it.")
@_APPLY_TOLD
def softplus_far_below(sub):
    near = {CONTEXT + "near_zero": _agrees_near_zero(sub.Softplus.apply)}
    return [*({**_gradient(_run(sub.Softplus.apply, x, "Softplus.apply(x)", FAR_BELOW)), **near}
              for x in SOFTPLUS_FAR_BELOW), *stepped_apart(sub, SOFTPLUS_FAR_BELOW[0])]


NEAR_ZERO = 0.4  # where sigmoid(x) is far from tiny: a difference quotient keeps most of its digits


def _agrees_near_zero(apply: Callable[[Value], Any]) -> bool:
    """Whether the gradient backward gives a leaf at ``NEAR_ZERO`` is sigmoid(x) to six digits: where
    the gradient far below 0 then differs, it was computed another way than sigmoid(x) itself, one
    whose digits are lost where sigmoid(x) is tiny (a difference quotient)."""
    x = Value(NEAR_ZERO, requires_grad=True)
    try:
        apply(x).backward()
        return math.isclose(num(x.grad), 1.0 / (1.0 + math.exp(-NEAR_ZERO)), rel_tol=1e-6)
    except Exception:  # noqa: BLE001 - the test's own runs tell an error, with its line
        return False


def _gradient(run: dict[str, Any]) -> dict[str, Any]:
    """A run's gradient fact; where apply returned no Value, no backward ran and there is no
    gradient to compare: the test stops, saying so (the public test names what it returned)."""
    if not isinstance(run["grad"], dict):
        raise TypeError(N_("Softplus.apply(x) returned no Value, so no backward ran through Softplus.backward"))
    return run["grad"]


@EXERCISE.test("Softplus's gradient is differentiable", points=1,
               feedback="backward computes grad * sigmoid(x) with Value operations on the x it saved and on "
               "grad, so that the gradient it returns is itself in a graph (create_graph=True).")
@_APPLY_TOLD
def softplus_second_derivative(sub):
    return [*(second_derivative(sub, x) for x in (-1.2, 0.8, 3.0, SOFTPLUS_FAR_ABOVE)),
            second_after_backward(sub, 1.3, -0.9),
            second_through_grad(sub.Softplus.apply, "Softplus", "Softplus.apply(a * b) * a", 0.9, -0.6)]


@EXERCISE.test(
    "Clip values, node and gradient",
    points=2,
    public=True,
    feedback="forward returns x clipped to [low, high]; backward passes grad where "
    "low <= x <= high and 0 elsewhere, and None for low and high.",
    key_feedback={
        "input": INPUT_FEEDBACK,
        "data": "forward returns low below the interval, high above it, x inside",
        "grad_fn": "call Clip.apply(x, low, high), which makes the node ClipBackward",
        "grad": "backward returns (gradient for x, None, None): grad inside the interval, "
        "0 outside, None for the numbers low and high",
    },
)
@_APPLY_TOLD
def clip_values(sub):
    return {**_clip_runs(sub, CLIP_AT + CLIP_ON_BOUNDS),
            "apart": [*applies_apart(sub, "Clip", 0.4, -0.6, -0.5, 0.5), at_a_freed_leaf(sub, "Clip", 0.5, 1.5)]}


def _clip_runs(sub, cases: tuple[tuple[float, float, float], ...]) -> dict[str, Any]:
    runs = [_run(lambda v, lo=lo, hi=hi: sub.Clip.apply(v, lo, hi), x, "Clip.apply(x, low, high)",
                 _against(x, lo, hi))
            for x, lo, hi in cases]
    return {**{key: [r[key] for r in runs] for key in ("input", "data", "grad_fn", "grad")}, "bounds": _bounds_used(sub, cases)}


def _bounds_used(sub, cases: tuple[tuple[float, float, float], ...]) -> dict[str, Any]:
    """The BOUNDS_USED fact of Clip: some x of ``cases`` gets another number from Clip.apply
    given another interval, one above x (where the statement's gives its low, whatever x was
    clipped to before).  Bounds written into forward (``clamp(x, -1, 1)``) give the same."""
    try:
        found = [[num(sub.Clip.apply(Value(x, requires_grad=True), *bounds)) for bounds in ((lo, hi), (x + 0.375, x + 2.5))]
                 for x, lo, hi in cases]
    except Exception:  # noqa: BLE001 - the runs' own calls tell the error
        found = []
    return check(Check.BOUNDS_USED, not found or any(type(a) is not float or a != b for a, b in found), "Clip.apply(x, low, high)")


@EXERCISE.test(
    "Clip on the bounds of other intervals",
    points=1,
    feedback="x equal to low or to high is inside the interval: low <= x <= high passes the "
    "gradient, as torch.clamp does.",
    key_feedback={
        "input": INPUT_FEEDBACK,
        "data": "on a bound, forward returns x, which equals the bound; outside the interval, the bound itself",
        "grad_fn": "call Clip.apply(x, low, high), which makes the node ClipBackward",
        "grad": "on a bound the gradient passes: the interval includes low and high",
    },
)
@_APPLY_TOLD
def clip_bounds(sub):
    runs, fractions = _clip_runs(sub, CLIP_ON_OTHER_BOUNDS), _clip_runs(sub, ((-3.0, -0.5, 0.5), (2.0, -2.0, 0.75)))
    return {**runs, "data": runs["data"] + fractions["data"]}  # x clipped to a bound that is no integer: its number


@EXERCISE.test("Clip passes gradcheck", points=1,
               feedback="Away from the bounds, Clip's backward must agree with finite differences: "
               "slope 1 inside the interval, 0 outside.")
@_APPLY_TOLD
def clip_gradcheck(sub):
    return [_gradcheck(lambda v, lo=lo, hi=hi: sub.Clip.apply(v, lo, hi),
                       "gradcheck(lambda v: Clip.apply(v, low, high), [x])", x)
            for x, lo, hi in CLIP_AT]


def _freeing(sub: ModuleType, name: str, op: Callable[[Value], Any], x0: float) -> dict[str, Any]:
    """y = op(x), ``name``'s node: what it saved, whether backward freed it, whether a second
    backward fails; then, on a new y, what retain_graph=True keeps (x.grad after two backward
    calls), and whether the node's second backward passed on what its first did."""
    x = Value(x0, requires_grad=True)
    y = op(x)  # an error here, or in the first backward, is the student's own, told with its line
    saved, version = graph(y, {"x": x}, label="y"), x._version
    kept = len(_saved_tensors(y))
    y.backward()
    out = {"input": input_kept(name, x, version), "saved": [saved, graph(y, {"x": x}, label="y")],
           "second_backward": saved_read(sub, name, y, kept, "the error for a second y.backward() after y.backward()")}
    x = Value(-x0, requires_grad=True)
    y = op(x)
    y.backward(retain_graph=True)
    first = num(x.grad) if isinstance(x.grad, Value) else None
    again = error_raised(y.backward, "the error for a second y.backward() after y.backward(retain_graph=True)")
    out["retained"] = [graph(y, {"x": x}, label="y"), again, {**grad_of(x, f"x.grad through {name}.backward"), **returned_none(y, x, name)},
                       backward_again(name, first, x, again["error"] is not None)]
    return out


@EXERCISE.test(
    "backward frees what was saved",
    points=2,
    public=True,
    feedback="Save x with ctx.save_for_backward(x) and read it back with ctx.saved_tensors: "
    "a backward without retain_graph then frees it, and retain_graph=True keeps it.",
    key_feedback={
        "saved": "keep x with ctx.save_for_backward(x), not as an attribute ctx.x: only what "
        "it saves is freed by backward",
        "second_backward": "read x back with ctx.saved_tensors in backward: once a backward "
        "without retain_graph freed it, a second backward raises",
        "retained": "after backward(retain_graph=True) the saved x is still there: a second "
        "backward works and adds to x.grad",
    },
)
@_APPLY_TOLD
def freed(sub):
    return by_key([_freeing(sub, name, op, 0.5) for name, op in _ops(sub).items()])


def _changed(sub: ModuleType, name: str, op: Callable[[Value], Any], x0: float) -> dict[str, Any]:
    """u = x * 1.0 saved by op(u), then changed in place: does backward notice?  And what op(u)
    returned: a new Value, or u itself (whose number the change moves too)?"""
    x = Value(x0, requires_grad=True)
    u = x * 1.0  # a non-leaf: it may be changed in place
    y = op(u)
    saved = _saved_tensors(y)
    before = num(y)
    u.add_(0.5)
    output = returned_input(name, y, before)
    kept = [graph(y, {"x": x}, label="y"),  # before backward, which frees it
            [same_object(v, u, "ctx.saved_tensors[0]", "x in forward(ctx, x)") for v in saved[:1]]]
    read = saved_read(sub, name, y, len(saved) if saved[:1] and saved[0] is u else 0, "the error for y.backward()")
    return {
        "output": output,
        "saved": kept,
        "backward": read,
        "grad": grad_of(x, f"x.grad through {name}.backward"),
    }


def _saved_tensors(y: object) -> tuple[Any, ...]:
    """What y's node saved (its ctx.saved_tensors, read before any backward), or nothing."""
    return tuple(getattr(y.grad_fn, "saved_tensors", ())) if isinstance(y, Value) else ()


@EXERCISE.test(
    "an in-place change of the saved x is caught",
    points=2,
    public=True,
    feedback="Save x with ctx.save_for_backward(x): a saved Value remembers its version, so "
    "changing it in place after forward makes backward raise instead of using the new number.",
    key_feedback={
        "saved": "save the very x forward was given, with ctx.save_for_backward(x): its version "
        "is stamped then and checked by ctx.saved_tensors",
        "backward": "the x saved was changed in place after forward: reading it back in "
        "backward must raise the engine's RuntimeError",
        "grad": "a backward that raises writes no gradient",
    },
)
@_APPLY_TOLD
def inplace_caught(sub):
    return by_key([_changed(sub, name, op, 0.3) for name, op in _ops(sub).items()])


COMPOSED_FEEDBACK = ("The Function's node joins the graph like any op: its backward's results "
                     "flow on to the inputs' own nodes (here a product and a subtraction).")
COMPOSED_KEYS = {
    "z": "forward returns its Value like any op: z is computed from a and b through both "
    "Functions",
    "grads": "backward multiplies the gradient it receives (not always 1 inside a bigger graph) "
    "by the Function's own derivative",
}


# A slip in Softplus or Clip shows in their graph too, and is said to (public: public tests only).
WITH_FUNCTIONS_PUBLIC = {"Softplus": ("Softplus values, node and gradient",),
                         "Clip": ("Clip values, node and gradient",)}
WITH_FUNCTIONS = {"Softplus": ("Softplus values, node and gradient", "Softplus passes gradcheck"),
                  "Clip": ("Clip values, node and gradient", "Clip on the bounds of other intervals",
                           "Clip passes gradcheck")}


@EXERCISE.test("a Function inside a bigger graph", points=1, public=True,
               feedback=COMPOSED_FEEDBACK, key_feedback=COMPOSED_KEYS, runs_with=WITH_FUNCTIONS_PUBLIC)
@_APPLY_TOLD
def in_graph_public(sub):
    # b - a = -1 in the second: Clip's lower bound, where the gradient still passes
    return {**by_key([composed(sub, 0.8, -1.5), composed(sub, 0.5, -0.5)]), "scales": _scaling(sub),
            "apart": [*applies_apart(sub, "Softplus", 0.6, 2.2), *beside_later(sub), *at_freed_leaves(sub)],
            "equal": equal_inputs(_ops(sub), 0.35)}


@EXERCISE.test("the Functions inside a bigger graph", points=2, feedback=COMPOSED_FEEDBACK,
               key_feedback=COMPOSED_KEYS, runs_with=WITH_FUNCTIONS)
@_APPLY_TOLD
def in_graph(sub):
    return {**by_key([composed(sub, a0, b0) for a0, b0 in ((-0.4, 0.9), (1.2, 2.0), (0.5, 1.5))]),
            "held": [caller_grads.kept_through(f"{name}.apply(x)", {"x": x}, lambda op=op, x=x: op(x))  # x holds a
                     for name, op in _ops(sub).items() for x in [Value(0.3, requires_grad=True)]],  # gradient already
            "own_notes": [two_clips(sub, a0) for a0 in (0.5, 2.5, 2.0)], "scales": _scaling(sub),  # 2: a bound
            "decided": decided_in_backward(sub),  # by x read back in backward, not a note forward left
            "second": clip_second(sub),  # a * b inside, and again beside a later Clip backward
            "grad_in": [grad_in_kept(op, name, x0) for name, op in _ops(sub).items() for x0 in (0.3, 2.5)],
            "apart": [*applies_apart(sub, "Softplus", -1.1, 3.0), *applies_apart(sub, "Clip", 0.4, -0.6, -0.5, 0.5),
                      *beside_later(sub), *at_freed_leaves(sub)]}


@EXERCISE.diagram
@_APPLY_TOLD
def draw(sub):
    a, b = Value(0.8, requires_grad=True), Value(-1.5, requires_grad=True)
    s = sub.Softplus.apply(a * b)
    c = sub.Clip.apply(b, -1.0, 1.0)
    z = s + c
    named = {"a": a, "b": b, "softplus": s, "clip": c, "z": z}
    names = {k: v for k, v in named.items() if isinstance(v, Value)}  # a forward may return a float
    show([z], names)  # drawn as built if backward fails
    z.backward()
    return [z], names
