"""ex17 build_backward: the student's backward gives PyTorch's gradients: each node runs once,
after every gradient for it arrived, and a long chain needs no recursion."""

from __future__ import annotations

from typing import Any

from grader.spec import Exercise, Limits
from grader.spec.build import documents_drawn, fact, grad_quiet, needs
from grader.spec.probe import by_key

EXERCISE = Exercise("ex17", "Build an engine: backward and the chain rule", module="ex17_build_backward",
                    limits=Limits(time=20), rules=True)

FEEDBACK = ("backward must run each node once, after every gradient for it has arrived (summed), "
            "and AccumulateGrad must write what it receives into the leaf's .grad.")
KEYS = {
    "grads": FEEDBACK,
    "constant": "a value that requires no grad gets no gradient: its .grad stays None",
    "chain": "backward through a chain of thousands of operations must give PyTorch's gradient too "
             "(Python stops a recursion near 1000 nested calls: walk the graph with a stack or a queue)",
}


def _grads(sub: Any, w: float, x: float) -> dict[str, Any]:
    needs(sub, 2)
    wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
    y = (xl + wl) * (wl + 1)
    y.backward()
    return {"grads": [fact(grad_quiet(wl), "w.grad for y = (x + w) * (w + 1)"),
                      fact(grad_quiet(xl), "x.grad for y = (x + w) * (w + 1)")]}


@EXERCISE.test("backward through the documents' graph", points=3, public=True, feedback=FEEDBACK,
               key_feedback=KEYS)
def documents_public(sub):
    return by_key([_grads(sub, w, x) for w, x in [(0.5, -3.0), (2.0, 4.0)]])


@EXERCISE.test("backward on other inputs", points=2, feedback=FEEDBACK, key_feedback=KEYS)
def documents_hidden(sub):
    return by_key([_grads(sub, w, x) for w, x in [(0.0, 0.0), (-1.25, 2.5), (3.0, -7.0)]])


@EXERCISE.test("shared nodes and diamonds", points=2, feedback=FEEDBACK, key_feedback=KEYS)
def diamonds(sub):
    needs(sub, 2)
    out = []
    for w0 in (1.5, -0.5):
        w = sub.Value(w0, requires_grad=True)
        h = w * w
        top = (h + h) * (h * w)
        top.backward()
        out.append(fact(grad_quiet(w), "w.grad for h = w * w, y = (h + h) * (h * w)"))
        u = sub.Value(w0, requires_grad=True)
        d = u + 1
        e = d * d
        f = (e + d) * (e * u)
        f.backward()
        out.append(fact(grad_quiet(u), "u.grad for d = u + 1, e = d * d, y = (e + d) * (e * u)"))
    return {"grads": out}


@EXERCISE.test("inputs that require no grad", points=1, feedback=FEEDBACK, key_feedback=KEYS)
def constants(sub):
    needs(sub, 2)
    c = sub.Value(3.0)
    w = sub.Value(-0.5, requires_grad=True)
    y = c * w + c * (w * w) + 2
    y.backward()
    return {"grads": [fact(grad_quiet(w), "w.grad for y = c * w + c * (w * w) + 2")],
            "constant": fact(grad_quiet(c), "c.grad (c = Value(3.0))")}


@EXERCISE.test("a chain of 5000 operations", points=2, feedback=FEEDBACK, key_feedback=KEYS)
def chain(sub):
    needs(sub, 2)
    w = sub.Value(1.0, requires_grad=True)
    v = w
    for i in range(5000):
        v = v * 1.0 + w if i % 1000 == 0 else v + 0.0
    v.backward()
    return {"chain": fact(grad_quiet(w), "w.grad after backward through a chain of 5000 operations")}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 2)
