"""ex05 accumulation: tests for gradients accumulating over steps, and clearing them with
``grad.zero_()`` or ``grad = None`` (one at a time in the loop, or through zero_grad).

The probes create the leaves and hand them to the submission, so they can look at the leaves'
gradients afterwards: what the loop left behind tells the two resets apart (0.0 versus None).
"""

from __future__ import annotations

from typing import Any

from micrograph import Value, mul

from grader.spec import Exercise
from grader.spec.probe import grad, num

EXERCISE = Exercise("ex05", "Gradients accumulate until cleared", module="ex05_accumulation")


def _leaves(w: float, x: float) -> tuple[Value, Value]:
    return Value(w, requires_grad=True), Value(x, requires_grad=True)


def _history(answer: object) -> list[Any] | str:
    if type(answer) is not list:
        return f"not a list: {type(answer).__name__}"
    return [num(g) for g in answer]


def _run(sub, w: float, x: float, steps: int, reset: str | None) -> dict[str, Any]:
    """One call of grad_history on fresh leaves: the history and the gradients left behind."""
    wl, xl = _leaves(w, x)
    history = _history(sub.grad_history(wl, xl, steps, reset))
    return {"history": history, "left": [grad(wl), grad(xl)]}


@EXERCISE.test(
    "gradients accumulate",
    points=2,
    public=True,
    feedback="Build y from the leaves you are given on every step, call y.backward() and "
    "record w.grad: nothing clears it between steps.",
)
def accumulate_public(sub):
    return [_run(sub, w, x, 4, None) for w, x in [(0.5, -3.0), (2.0, 4.0)]]


@EXERCISE.test(
    "accumulation over other step counts",
    points=2,
    feedback="Each backward adds to whatever .grad already holds, even a gradient that was "
    "there before the loop; run exactly `steps` steps.",
    key_feedback={
        "steps": "one entry per step: backward adds dy/dw to w.grad every time",
        "earlier_grad": "w already held a gradient before the loop: backward adds to it",
    },
)
def accumulate_hidden(sub):
    cases = [(-1.5, 0.25, 1), (3.0, -2.0, 3), (0.0, 1.0, 6)]
    steps = [_run(sub, w, x, n, None) for w, x, n in cases]
    wl, xl = _leaves(1.25, -0.5)
    mul(wl, 3.0).backward()  # w.grad is 3 before the loop starts
    earlier = {"history": _history(sub.grad_history(wl, xl, 3)), "left": [grad(wl), grad(xl)]}
    return {"steps": steps, "earlier_grad": earlier}


@EXERCISE.test(
    "zero_() every step",
    points=2,
    feedback="With reset='zero_', call w.grad.zero_() and x.grad.zero_() after recording each "
    "step's gradient, so every step starts from 0.",
)
def zero_each_step(sub):
    return [_run(sub, w, x, n, "zero_")["history"]
            for w, x, n in [(-2.5, 1.0, 4), (1.5, 0.5, 2), (4.0, -4.0, 5)]]


@EXERCISE.test(
    "grad = None every step",
    points=2,
    feedback="With reset='none', set w.grad = None and x.grad = None after recording each "
    "step's gradient, so the next backward stores a new one.",
)
def none_each_step(sub):
    return [_run(sub, w, x, n, "none")["history"]
            for w, x, n in [(0.75, 2.0, 4), (-3.0, -1.0, 3), (10.0, 0.5, 2)]]


@EXERCISE.test(
    "both leaves cleared after each step",
    points=1,
    feedback="Clear both w and x, after recording the step's gradient.",
    key_feedback={
        "zero_": "zero_() keeps the gradient Value and sets it to 0: after the loop both "
        "leaves hold 0",
        "none": "grad = None drops the gradient: after the loop both leaves' .grad are None",
    },
)
def left_behind(sub):
    return {reset: [_run(sub, w, x, 3, reset)["left"] for w, x in [(1.5, -2.0), (-0.5, 6.0)]]
            for reset in ("zero_", "none")}


@EXERCISE.test(
    "zero_grad clears every leaf",
    points=2,
    feedback="For each leaf: set_to_none=True sets .grad = None; set_to_none=False calls "
    ".grad.zero_() when .grad is not None (a leaf without a gradient stays None).",
    key_feedback={
        "set_to_none": "set_to_none=True: every leaf's .grad becomes None",
        "zeroed": "set_to_none=False: each stored gradient becomes 0, a missing one stays None",
        "same_value": "zero_() changes the gradient in place: .grad is still the same Value",
    },
)
def zero_grad(sub):
    def with_grads() -> tuple[list[Value], Any]:
        p, q, r = (Value(v, requires_grad=True) for v in (2.0, -1.5, 0.5))
        (p * q + p).backward()  # p and q get gradients, r none
        return [p, q, r], p.grad

    leaves, _ = with_grads()
    sub.zero_grad(leaves, set_to_none=True)
    set_to_none = [grad(v) for v in leaves]
    leaves, before = with_grads()
    sub.zero_grad(leaves, set_to_none=False)
    zeroed = [grad(v) for v in leaves]
    return {"set_to_none": set_to_none, "zeroed": zeroed, "same_value": leaves[0].grad is before}


@EXERCISE.diagram
def draw(sub):
    # The leaves after three accumulating steps (their .grad is three steps' worth); the loop's
    # own graphs are not returned, so the drawing shows one more step built from the same leaves.
    w, x = _leaves(0.5, -3.0)
    sub.grad_history(w, x, 3)
    a, b = x + w, w + 1
    y = a * b
    return [y], {"w": w, "x": x, "a": a, "b": b, "y": y}
