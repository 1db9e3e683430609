"""ex02 leaves: tests for is_leaf / requires_grad / grad_fn, leaves without grad, no-grad results.

Covers the first document's attribute table, and the third document's examples 2 and 3: a Value
computed from a grad-requiring leaf is never a leaf; with w created without requires_grad,
b = w + 1 records nothing and is a leaf.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value, add, exp, mul, sub

from grader.spec import Exercise
from grader.spec.probe import num, value

EXERCISE = Exercise("ex02", "Leaves, requires_grad and grad_fn", module="ex02_leaves")

NODES = ("w", "x", "a", "b", "y")


def _graph(sub_module: Any, w: float, x: float, *flags: bool) -> dict[str, Any]:
    """Every node's observable attributes for one call of the student's build_graph."""
    g = sub_module.build_graph(w, x, *flags)
    return {name: value(g[name]) for name in NODES}


def _per_node(graphs: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Regroup a list of per-call observations by node, so a mismatch names the node."""
    return {name: [g[name] for g in graphs] for name in NODES}


def _flag(x: object) -> bool | str:
    return x if type(x) is bool else f"not a bool: {type(x).__name__}"


def _name(x: object) -> str | None:
    return x if x is None or type(x) is str else f"not a str or None: {type(x).__name__}"


def _info(info: object) -> dict[str, Any] | str:
    """node_info's answer as plain data, checking the types it promises."""
    if type(info) is not dict:
        return f"not a dict: {type(info).__name__}"
    keys = ("is_leaf", "requires_grad", "grad_fn")
    if set(info) != set(keys):
        return f"keys {sorted(map(str, info))}"
    return {
        "is_leaf": _flag(info["is_leaf"]),
        "requires_grad": _flag(info["requires_grad"]),
        "grad_fn": _name(info["grad_fn"]),
    }


def _assorted() -> list[Value]:
    """Values of every kind: leaves with and without grad, recorded and unrecorded results."""
    p = Value(-1.5, requires_grad=True)
    q = Value(0.25)  # a leaf that does not require grad (input data)
    c = add(p, 0.0)  # example 2: anything made from a grad-requiring leaf is not a leaf
    d = mul(q, 4.0)  # made from no-grad values only: a leaf
    e = sub(p, q)
    f = exp(mul(e, d))
    g = sub(d, q)  # still only no-grad values
    f.backward()  # backward changes none of the three attributes
    return [p, q, c, d, e, f, g]


@EXERCISE.test(
    "the documents' graph",
    points=2,
    public=True,
    feedback="Create w and x with Value(..., requires_grad=True), then a = x + w, b = w + 1, "
    "y = a * b, and do not call backward.",
    key_feedback={
        "w": "w is a leaf you create: Value(w, requires_grad=w_requires_grad)",
        "x": "x is a leaf you create: Value(x, requires_grad=x_requires_grad)",
        "a": "a = x + w is recorded by an addition: micrograph.add(x, w)",
        "b": "b = w + 1 is recorded by an addition of w and the number 1",
        "y": "y = a * b is recorded by a product: micrograph.mul(a, b)",
    },
)
def documents_graph(sub_module):
    return _per_node([_graph(sub_module, w, x) for w, x in [(0.5, -3.0), (2.5, 4.0)]])


@EXERCISE.test(
    "a leaf that does not require grad",
    points=2,
    feedback="Pass the flags on to the leaves: Value(w, requires_grad=w_requires_grad).",
    key_feedback={
        "w": "w is still a leaf when it does not require grad: you created it",
        "x": "x keeps the requires_grad flag it was given",
        "a": "a = x + w requires grad because x does: at least one input is enough",
        "b": "b = w + 1 with w not requiring grad records nothing: b is a leaf, grad_fn None",
        "y": "y = a * b requires grad because a does",
    },
)
def w_without_grad(sub_module):
    return _per_node([_graph(sub_module, w, x, False, True) for w, x in [(1.5, -2.0), (-4.0, 0.5)]])


@EXERCISE.test(
    "results of no-grad values are leaves",
    points=2,
    feedback="A result of Values that do not require grad records no operation: it has "
    "requires_grad False, grad_fn None, and counts as a leaf.",
    key_feedback={
        "x_without_grad": "with only x not requiring grad, a and y still depend on w",
        "no_grad_at_all": "with neither leaf requiring grad nothing is recorded: every node "
        "is a leaf",
    },
)
def no_grad_results(sub_module):
    return {
        "x_without_grad": _per_node([_graph(sub_module, -0.75, 3.0, True, False)]),
        "no_grad_at_all": _per_node(
            [_graph(sub_module, w, x, False, False) for w, x in [(2.0, -1.0), (0.0, 6.5)]]
        ),
    }


NODE_INFO_FEEDBACK = (
    "Return v.is_leaf, v.requires_grad and the name v.grad_fn.name() (None when grad_fn is "
    "None) under the keys is_leaf, requires_grad, grad_fn."
)


@EXERCISE.test("node_info reads the attributes", points=1, public=True, feedback=NODE_INFO_FEEDBACK)
def node_info_documents(sub_module):
    w, x = Value(-0.5, requires_grad=True), Value(1.75, requires_grad=True)
    a = add(x, w)
    b = add(w, 1.0)
    y = mul(a, b)
    return {name: _info(sub_module.node_info(v)) for name, v in zip(NODES, (w, x, a, b, y))}


@EXERCISE.test(
    "node_info on every kind of Value",
    points=2,
    feedback=NODE_INFO_FEEDBACK + " A Value made from a grad-requiring Value is never a leaf; "
    "one made only from no-grad Values has no grad_fn and is a leaf.",
)
def node_info_assorted(sub_module):
    return [_info(sub_module.node_info(v)) for v in _assorted()]


@EXERCISE.test(
    "which leaves get a gradient",
    points=2,
    feedback="Backpropagate from y and read each leaf's .grad: a leaf that does not require "
    "grad is never given one, so return None for it.",
    key_feedback={
        "both": "with both leaves requiring grad, both get their gradient from backward, "
        "on the inputs given",
        "w_without_grad": "w does not require grad: its .grad stays None, x still gets one",
        "x_without_grad": "x does not require grad: its .grad stays None, w still gets one",
    },
)
def leaf_grads(sub_module):
    cases = {
        "both": (True, True),
        "w_without_grad": (False, True),
        "x_without_grad": (True, False),
    }
    points = [(0.5, -3.0), (-2.25, 1.0), (3.0, 0.0)]
    out: dict[str, Any] = {}
    for key, flags in cases.items():
        answers = [sub_module.leaf_grads(w, x, *flags) for w, x in points]
        out[key] = [_grads(a) for a in answers]
    return out


def _grads(answer: object) -> dict[str, Any] | str:
    if type(answer) is not dict or set(answer) != {"w", "x"}:
        return f"not a dict with keys w and x: {type(answer).__name__}"
    return {k: None if answer[k] is None else num(answer[k]) for k in ("w", "x")}


@EXERCISE.diagram
def draw(sub_module):
    g = sub_module.build_graph(0.5, -3.0, False, True)
    g["y"].backward()
    return [g["y"]], g
