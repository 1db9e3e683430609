"""ex04 retain_graph: tests for the second-backward error, retain_graph=True, and which graphs
survive a second backward without it (those that saved nothing: additions, subtractions, negation).
"""

from __future__ import annotations

from grader.spec import Exercise
from grader.spec.probe import caught, num

EXERCISE = Exercise("ex04", "retain_graph and the second backward", module="ex04_retain_graph")

POINTS = [(0.5, -3.0), (2.0, 4.0), (-1.25, 0.75)]

# Graphs of additions, subtractions and negations only: nothing saved, nothing freed.
ADDITIONS = {
    "v + 1": lambda v: v + 1,
    "2.5 - v": lambda v: 2.5 - v,
    "(v + 1) + (v + 2) + v": lambda v: (v + 1) + (v + 2) + v,
    "-v - v": lambda v: -v - v,
}
# Graphs with at least one node that saves a value for its backward step.
SAVING = {
    "v * 3": lambda v: v * 3,
    "v * v": lambda v: v * v,
    "(v + 1) * 2": lambda v: (v + 1) * 2,
    "v + v * 0.5": lambda v: v + v * 0.5,
    "v / 2": lambda v: v / 2,
    "v ** 2": lambda v: v**2,
    "exp(v)": lambda v: v.exp(),
    "tanh(v) + 1": lambda v: v.tanh() + 1,
}


def _twice(sub, w: float, x: float, retain_graph: bool) -> tuple[str | None, list[object] | str]:
    answer = sub.backward_twice(w, x, retain_graph)
    if type(answer) is not tuple or len(answer) != 2:
        raise TypeError("backward_twice must return a pair (error or None, [w.grad, w.grad])")
    error, history = answer
    if type(history) is not list:
        return caught(error), f"not a list: {type(history).__name__}"
    return caught(error), [num(g) for g in history]


@EXERCISE.test(
    "a second backward raises",
    points=2,
    public=True,
    feedback="Call y.backward() twice without retain_graph; catch the second call's "
    "RuntimeError with try / except RuntimeError as error, and return the error object.",
)
def second_raises(sub):
    return [_twice(sub, w, x, False)[0] for w, x in POINTS[:2]]


@EXERCISE.test(
    "a failed backward adds nothing",
    points=1,
    feedback="Record w.grad (as a float) after each call; a second backward that fails "
    "writes no gradient, so w.grad keeps the first call's value.",
)
def failed_adds_nothing(sub):
    return [_twice(sub, w, x, False)[1] for w, x in POINTS]


@EXERCISE.test(
    "with retain_graph=True the second backward adds",
    points=2,
    feedback="Pass retain_graph on to the first call: y.backward(retain_graph=retain_graph).",
    key_feedback={
        "error": "with retain_graph=True the saved values are kept, so the second backward "
        "works and there is no error to return",
        "w_grad": "the second backward adds its gradient to w.grad: gradients accumulate",
    },
)
def retained_doubles(sub):
    results = [_twice(sub, w, x, True) for w, x in [(-2.0, 5.0), (0.75, 0.25), (3.0, -1.0)]]
    return {"error": [r[0] for r in results], "w_grad": [r[1] for r in results]}


@EXERCISE.test(
    "graphs of additions run twice",
    points=2,
    feedback="Backpropagate from the graph build makes, twice; return None when the second "
    "call works: additions, subtractions and negations save nothing, so nothing was freed.",
)
def additions_twice(sub):
    return {label: caught(sub.second_backward_error(build, w))
            for (label, build), w in zip(ADDITIONS.items(), (1.5, -0.5, 4.0, 0.25))}


@EXERCISE.test(
    "graphs that save values do not",
    points=2,
    feedback="Catch the second call's RuntimeError and return it: any product (even by a "
    "number), division, power, exp or tanh saves a value, and the first backward freed it.",
)
def saving_fails(sub):
    ws = (1.5, -0.5, 2.0, 0.25, 3.0, -1.5, 0.5, -2.0)
    return {label: caught(sub.second_backward_error(build, w))
            for (label, build), w in zip(SAVING.items(), ws)}


@EXERCISE.diagram
def draw(sub):
    # The graph of the documents, after the backward that freed its saved values.
    g = sub.build_graph(0.5, -3.0)
    g["y"].backward()
    return [g["y"]], g
