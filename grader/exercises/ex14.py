"""ex14 custom_function: tests for two hand-written Functions, Softplus and Clip: values,
gradients, node names, gradcheck, and what save_for_backward brings (freeing by backward, the
in-place check), on inputs not in the exercise text, Clip's bounds included (x equal to low or
high passes the gradient, as torch.clamp's).  An error raised by the student's forward or
backward on a plain input is told as raised, with its line.
"""

from __future__ import annotations

from typing import Any, Callable

from micrograph import Value, gradcheck  # bound now, before the submission is imported

from grader.spec import Exercise
from grader.spec.probe import error_text, grad, grad_fn, num, raised, show
from grader.spec.provenance import grad_of

EXERCISE = Exercise("ex14", "A custom Function with save_for_backward", module="ex14_custom_function")

SOFTPLUS_AT = (-2.5, -0.3, 0.0, 1.7, 4.0)
# (x, low, high): inside, below, above the interval, and a wider interval
CLIP_AT = ((0.25, -1.0, 1.0), (-3.0, -1.0, 1.0), (2.5, -1.0, 1.0), (-0.75, -2.0, 0.5), (1.25, 0.0, 3.0))
# x on a bound: the gradient passes (low <= x <= high, as torch.clamp's); a strict test drops it
CLIP_ON_BOUNDS = ((-1.0, -1.0, 1.0), (1.0, -1.0, 1.0))
CLIP_ON_OTHER_BOUNDS = ((0.0, 0.0, 3.0), (0.5, -0.5, 0.5), (-2.0, -2.0, 0.5))


def _attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``fn(*args, **kwargs)`` and None, or None and the error it raised (NotImplementedError
    goes through)."""
    try:
        return fn(*args, **kwargs), None
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - a Function that fails is an observation here
        return None, error_text(exc)


def _run(make: Callable[[Value], Any], x: float) -> dict[str, Any] | str:
    """y = make(leaf), then one backward: y's data and grad_fn, and the leaf's gradient (who
    wrote it: the engine's backward through the student's node)."""
    leaf = Value(x, requires_grad=True)
    y = make(leaf)  # an error is the student's own, told with its line
    if not isinstance(y, Value):
        return f"not a Value: {type(y).__name__}"
    observed = {"data": num(y), "grad_fn": grad_fn(y)}
    y.backward()
    observed["grad"] = grad_of(leaf, "x.grad")
    return observed


def _gradcheck(fn: Callable[..., Any], *xs: float) -> bool | str:
    inputs = [Value(x, requires_grad=True) for x in xs]
    passed, error = _attempt(gradcheck, fn, inputs, raise_exception=False)
    return error if error is not None else passed


def _ops(sub) -> dict[str, Callable[[Value], Any]]:
    """The two Functions as one-argument ops, with fixed bounds for Clip."""
    return {"Softplus": sub.Softplus.apply, "Clip": lambda v: sub.Clip.apply(v, -1.0, 1.0)}


@EXERCISE.test(
    "Softplus values, node and gradient",
    points=2,
    public=True,
    feedback="forward returns log(1 + exp(x)) as a Value; backward returns grad times sigmoid(x).",
    key_feedback={
        "data": "forward must return log(1 + exp(x)), computed from x with Value ops",
        "grad_fn": "call Softplus.apply(x), which makes the node SoftplusBackward; keep the "
        "class name Softplus",
        "grad": "backward returns grad * sigmoid(x), x read from ctx.saved_values",
    },
)
def softplus_values(sub):
    runs = [_run(sub.Softplus.apply, x) for x in SOFTPLUS_AT]
    return {key: [r if type(r) is str else r[key] for r in runs] for key in ("data", "grad_fn", "grad")}


@EXERCISE.test(
    "Softplus passes gradcheck",
    points=2,
    feedback="backward must agree with finite differences: d softplus(x)/dx = sigmoid(x), "
    "times the incoming gradient, for one argument.",
)
def softplus_gradcheck(sub):
    checks = [_gradcheck(sub.Softplus.apply, x) for x in (-1.7, 0.4, 2.2)]
    checks.append(_gradcheck(lambda a, b: sub.Softplus.apply(a * b) * a, 0.6, -1.3))
    return checks


@EXERCISE.test(
    "Clip values, node and gradient",
    points=2,
    public=True,
    feedback="forward returns x clipped to [low, high]; backward passes grad where "
    "low <= x <= high and 0 elsewhere, and None for low and high.",
    key_feedback={
        "data": "forward returns low below the interval, high above it, x inside",
        "grad_fn": "call Clip.apply(x, low, high), which makes the node ClipBackward",
        "grad": "backward returns (gradient for x, None, None): grad inside the interval, "
        "0 outside, None for the numbers low and high",
    },
)
def clip_values(sub):
    return _clip_runs(sub, CLIP_AT + CLIP_ON_BOUNDS)


def _clip_runs(sub, cases: tuple[tuple[float, float, float], ...]) -> dict[str, Any]:
    runs = [_run(lambda v, lo=lo, hi=hi: sub.Clip.apply(v, lo, hi), x) for x, lo, hi in cases]
    return {key: [r if type(r) is str else r[key] for r in runs] for key in ("data", "grad_fn", "grad")}


@EXERCISE.test(
    "Clip on the bounds of other intervals",
    points=1,
    feedback="x equal to low or to high is inside the interval: low <= x <= high passes the "
    "gradient, as torch.clamp does.",
    key_feedback={
        "data": "on a bound, forward returns x, which equals the bound",
        "grad_fn": "call Clip.apply(x, low, high), which makes the node ClipBackward",
        "grad": "on a bound the gradient passes: the interval includes low and high",
    },
)
def clip_bounds(sub):
    return _clip_runs(sub, CLIP_ON_OTHER_BOUNDS)


@EXERCISE.test(
    "Clip passes gradcheck",
    points=1,
    feedback="Away from the bounds, Clip's backward must agree with finite differences: "
    "slope 1 inside the interval, 0 outside.",
)
def clip_gradcheck(sub):
    return [_gradcheck(lambda v, lo=lo, hi=hi: sub.Clip.apply(v, lo, hi), x) for x, lo, hi in CLIP_AT]


@EXERCISE.test(
    "backward frees what was saved",
    points=2,
    public=True,
    feedback="Save x with ctx.save_for_backward(x) and read it back with ctx.saved_values: "
    "a backward without retain_graph then frees it, and retain_graph=True keeps it.",
    key_feedback={
        "second_backward": "the first backward must work and a second one must raise the "
        "second-backward RuntimeError: "
        "keep x with ctx.save_for_backward, not as an attribute ctx.x",
        "retained": "after backward(retain_graph=True) a second backward works and adds to x.grad",
    },
)
def freed(sub):
    second, retained = {}, {}
    for name, op in _ops(sub).items():
        x = Value(0.5, requires_grad=True)
        y = op(x)
        _, error = _attempt(y.backward)
        second[name] = error or raised(y.backward)
        x = Value(-0.25, requires_grad=True)
        y = op(x)
        _, error = _attempt(y.backward, retain_graph=True)
        retained[name] = error or [raised(y.backward), grad(x)]
    return {"second_backward": second, "retained": retained}


@EXERCISE.test(
    "an in-place change of the saved x is caught",
    points=2,
    public=True,
    feedback="Save x with ctx.save_for_backward(x): a saved Value remembers its version, so "
    "changing it in place after forward makes backward raise instead of using the new number.",
)
def inplace_caught(sub):
    out = {}
    for name, op in _ops(sub).items():
        x = Value(0.3, requires_grad=True)
        u = x * 1.0  # a non-leaf: it may be changed in place
        y = op(u)
        u.add_(0.5)
        out[name] = [raised(y.backward), grad(x)]
    return out


@EXERCISE.test(
    "the Functions inside a bigger graph",
    points=2,
    feedback="The Function's node joins the graph like any op: its backward's results flow on "
    "to the inputs' own nodes (here a product and a subtraction).",
)
def in_graph(sub):
    out = []
    for a0, b0 in ((0.8, -1.5), (-0.4, 0.9), (1.2, 2.0)):
        a, b = Value(a0, requires_grad=True), Value(b0, requires_grad=True)
        z = sub.Softplus.apply(a * b) * a + sub.Clip.apply(b - a, -1.0, 1.0)
        _, error = _attempt(z.backward)
        out.append(error or [num(z), grad(a), grad(b)])
    return out


@EXERCISE.diagram
def draw(sub):
    a, b = Value(0.8, requires_grad=True), Value(-1.5, requires_grad=True)
    s = sub.Softplus.apply(a * b)
    c = sub.Clip.apply(b, -1.0, 1.0)
    z = s + c
    names = {"a": a, "b": b, "softplus": s, "clip": c, "z": z}
    show([z], names)  # drawn as built if backward fails
    z.backward()
    return [z], names
