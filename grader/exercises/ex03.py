"""ex03 retain_grad: tests for non-leaf gradients, the warning on reading them, and retain_grad().

The first exercise most students grade, so every feedback line names the idea to look at.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value, add, mul

from grader.spec import Exercise
from grader.spec.probe import caught_warnings, first_line, grad, num

EXERCISE = Exercise(
    "ex03", "retain_grad keeps a non-leaf's gradient", module="ex03_retain_grad"
)

POINTS = [(0.5, -3.0), (2.0, 4.0), (-1.25, 0.75)]
NON_LEAF_WARNING = "is not a leaf Tensor is being accessed"


def _grad_or_none(g: object) -> float | str | None:
    """What a student returned for a .grad: None, or a number (a Value or a float)."""
    return None if g is None else num(g)


def _text(t: object) -> str | None:
    """grad_warning's answer: None, or the first line of the warning text."""
    if t is None:
        return None
    return first_line(t) if type(t) is str else f"not a str: {type(t).__name__}"


def _nodes(g: object) -> dict[str, Any]:
    """The five Values of a returned graph dict (or a description of what came back)."""
    names = ("w", "x", "a", "b", "y")
    if type(g) is not dict or not set(names) <= set(g):
        raise TypeError("backward_retaining must return the dict of the five Values w, x, a, b, y")
    return {name: g[name] for name in names}


def _probe_graph(w: float, x: float) -> dict[str, Value]:
    """The documents' graph, built by the probe itself."""
    wl, xl = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = add(xl, wl)
    b = add(wl, 1.0)
    return {"w": wl, "x": xl, "a": a, "b": b, "y": mul(a, b)}


@EXERCISE.test(
    "a.grad after retain_grad",
    points=2,
    public=True,
    feedback="Call a.retain_grad() on the non-leaf a, then y.backward().",
    key_feedback={
        "a_grad": "a.grad is None: a non-leaf keeps its gradient only if you ask with "
        "a.retain_grad() before y.backward()",
        "leaf_grads": "w.grad and x.grad are filled by y.backward() whatever you retain",
    },
)
def retained_a(sub):
    graphs = [_nodes(sub.backward_retaining(w, x, ["a"])) for w, x in POINTS[:2]]
    return {
        "a_grad": [grad(g["a"]) for g in graphs],
        "leaf_grads": [[grad(g["w"]), grad(g["x"])] for g in graphs],
    }


@EXERCISE.test(
    "retain_grad on exactly the nodes named",
    points=2,
    feedback="Call retain_grad() on each node in names, and only those, before y.backward(); "
    "a node you did not retain keeps .grad None.",
    key_feedback={
        "grads": "a retained node holds dy/d(node) after backward, y itself included; the others "
        "stay None",
        "retains_grad": "retain_grad() sets the node's retains_grad flag: call it on each name",
    },
)
def retained_named(sub):
    cases = [(["b"], 1.5, -0.5), (["y"], -3.0, 2.0), (["a", "y"], 0.25, 8.0),
             (["b", "a", "y"], 4.0, -4.5), ([], -0.5, 1.0)]
    grads, flags = [], []
    for names, w, x in cases:
        g = _nodes(sub.backward_retaining(w, x, list(names)))
        grads.append([grad(g[n]) for n in ("a", "b", "y")])
        flags.append([bool(getattr(g[n], "retains_grad", None)) for n in ("a", "b", "y")])
    return {"grads": grads, "retains_grad": flags}


@EXERCISE.test(
    "non-leaf grads are None after backward",
    points=2,
    feedback="Call y.backward() without retain_grad and return what each node's .grad holds.",
    key_feedback={
        "leaves": "w.grad and x.grad hold dy/dw and dy/dx after y.backward()",
        "non_leaves": "without retain_grad, backward does not keep a, b or y's gradient: "
        "their .grad is None",
        "warnings": "read the .grad of a, b and y themselves (each read of a non-leaf's .grad "
        "warns, and those warnings must happen): don't write the answer yourself, and don't "
        "silence the warning",
    },
)
def without_retain(sub):
    answers, warned = [], []
    for w, x in POINTS:
        with caught_warnings() as seen:
            answers.append(sub.grads_after_backward(w, x))
        # a node read twice warns twice: what counts is that a, b and y were each read
        warned.append(min(3, sum(1 for text in seen if NON_LEAF_WARNING in text)))
    for answer in answers:
        if type(answer) is not dict:
            raise TypeError("grads_after_backward must return a dict of the five .grad values")
    return {
        "leaves": [[_grad_or_none(r.get(n)) for n in ("w", "x")] for r in answers],
        "non_leaves": [[_grad_or_none(r.get(n)) for n in ("a", "b", "y")] for r in answers],
        "warnings": warned,
    }


@EXERCISE.test(
    "the warning on reading a non-leaf's .grad",
    points=2,
    feedback="Read v.grad inside warnings.catch_warnings(record=True) with "
    "warnings.simplefilter('always'); return str(caught[0].message), or None if nothing "
    "was caught.",
    key_feedback={
        "non_leaf": "reading .grad of a non-leaf warns, before and after backward: return "
        "the warning's text",
        "leaf": "a leaf never warns, whether or not it requires grad: return None",
        "no_grad_result": "a result of no-grad Values is a leaf, so it does not warn",
        "retained": "a retained non-leaf does not warn: its .grad is meant to be read",
    },
)
def warning_text(sub):
    g = _probe_graph(1.5, -2.5)
    before = [_text(sub.grad_warning(g["a"]))]
    retained = _probe_graph(-0.5, 3.0)
    retained["a"].retain_grad()
    g["y"].backward()
    retained["y"].backward()
    data = Value(4.0)
    return {
        "non_leaf": before + [_text(sub.grad_warning(g[n])) for n in ("a", "b", "y")],
        "leaf": [_text(sub.grad_warning(v)) for v in (g["w"], g["x"], data)],
        "no_grad_result": [_text(sub.grad_warning(mul(data, 3.0)))],
        "retained": [_text(sub.grad_warning(retained["a"]))],
    }


@EXERCISE.test(
    "retained grads on varied inputs",
    points=2,
    feedback="Build the graph from the w and x given, call retain_grad() on the names, then "
    "y.backward().",
    key_feedback={
        "retained": "a and b must hold their gradients for the w and x given: call "
        "retain_grad() on each of them before y.backward() (afterwards is too late)",
        "leaves": "w.grad and x.grad come from y.backward() on a graph built from the w and x "
        "given",
    },
)
def retained_varied(sub):
    graphs = [_nodes(sub.backward_retaining(w, x, ["a", "b"]))
              for w, x in [(-7.5, 0.125), (10.0, -20.0), (0.0, 0.0), (3.25, 3.25)]]
    return {
        "retained": [[grad(g[n]) for n in ("a", "b")] for g in graphs],
        "leaves": [[grad(g[n]) for n in ("w", "x")] for g in graphs],
    }


@EXERCISE.diagram
def draw(sub):
    g = _nodes(sub.backward_retaining(0.5, -3.0, ["a"]))
    return [g["y"]], g
