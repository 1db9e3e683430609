"""ex10 dynamic_graph: Python control flow decides the graph, call by call.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
The probes own the leaves, backpropagate themselves and read the graph with their own walker
(``_chain``), so that ``branch`` and ``double_until`` are judged apart from ``grad_fn_chain``.
"""

import micrograph
from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import grad, grad_fn, num

EXERCISE = Exercise(
    "ex10", "The dynamic graph: built as the code runs", module="ex10_dynamic_graph"
)


def _chain(y: object) -> list | str:
    """The node names from y.grad_fn down its first tracked inputs, leaves' nodes left out."""
    if not isinstance(y, Value):
        return f"not a Value: {type(y).__name__}"
    names, node = [], y.grad_fn
    while node is not None and not isinstance(node, micrograph.AccumulateGrad):
        names.append(str(node.name()))
        node = next((child for child, _ in node.next_functions if child is not None), None)
    return names


def _backward(y: object, w: Value) -> float | None | str:
    """dy/dw by the probe's own backward call, leaving w.grad cleared for the next graph."""
    if not isinstance(y, Value):
        return f"not a Value: {type(y).__name__}"
    y.backward()
    dw = grad(w)
    w.grad = None
    return dw


def _names_of(names: object) -> list | str:
    """A returned list of names, checked to be plain strings."""
    if type(names) is not list or not all(type(n) is str for n in names):
        return f"not a list of str: {type(names).__name__}"
    return names


def _other_graphs() -> list[Value]:
    """Graphs to read with grad_fn_chain, none of them from the exercise."""
    w = Value(0.5, requires_grad=True)
    c = Value(3.0)  # data: its edge is None
    return [
        ((w * 2).exp() + 1).tanh(),
        c - w,
        (c + w) * (w + 1),
        ((w - c).sigmoid() * c).relu(),
        w,
    ]


@EXERCISE.test(
    "branch picks the operation",
    points=2,
    public=True,
    feedback="If x > 0 return x_value * w, otherwise exp(x_value - w), with x_value = Value(x).",
    key_feedback={
        "grad_fn": "each branch records its own operations: a product when x > 0, otherwise "
        "an exponential of a subtraction",
        "value": "y is x * w when x > 0, exp(x - w) otherwise",
    },
)
def branch_public(sub):
    w = Value(0.75, requires_grad=True)
    ys = [sub.branch(x, w) for x in (2.0, -1.0)]
    return {"grad_fn": [grad_fn(y) for y in ys], "value": [num(y) for y in ys]}


@EXERCISE.test(
    "a new graph per call",
    points=3,
    feedback="Every call records only the branch its x selects: the product when x > 0, the "
    "exponential of x - w when x <= 0 (x = 0 included).",
    key_feedback={
        "graphs": "each call's graph must hold only the operations of the branch taken",
        "grads": "backward differentiates only the branch that ran: build each call's y "
        "with the branch its x selects",
        "values": "y is x * w when x > 0, exp(x - w) otherwise",
    },
)
def graph_per_call(sub):
    w = Value(-0.5, requires_grad=True)
    ys = [sub.branch(x, w) for x in (1.5, -2.0, 0.0, 3.0, -0.25)]
    return {
        "graphs": [_chain(y) for y in ys],
        "values": [num(y) for y in ys],
        "grads": [_backward(y, w) for y in ys],
    }


@EXERCISE.test(
    "grad_fn_chain reads a branch",
    points=1,
    public=True,
    feedback="Walk from y.grad_fn through the first non-None entry of next_functions, collecting "
    "node.name(); stop at a leaf's AccumulateGrad node.",
)
def chain_public(sub):
    w = Value(1.25, requires_grad=True)
    return [_names_of(sub.grad_fn_chain(sub.branch(x, w))) for x in (0.5, -3.0)]


@EXERCISE.test(
    "grad_fn_chain on other graphs",
    points=2,
    feedback="Skip None entries of next_functions (inputs that need no gradient), stop before "
    "an AccumulateGrad node, and return [] for a leaf.",
)
def chain_other(sub):
    return [_names_of(sub.grad_fn_chain(y)) for y in _other_graphs()]


@EXERCISE.test(
    "the while loop follows the data",
    points=2,
    feedback="Double y while y < limit, counting the doublings; if w is already at or above "
    "the limit the loop runs zero times and y is w.",
    key_feedback={
        "steps": "count one step per doubling that ran",
        "y": "y ends at the first doubled value that is not below the limit",
    },
)
def loop_steps(sub):
    runs = [
        sub.double_until(Value(w, requires_grad=True), limit)
        for w, limit in [(0.75, 50.0), (3.0, 10.0), (20.0, 5.0), (0.1, 1000.0)]
    ]
    return {"steps": [r[1] for r in runs], "y": [num(r[0]) for r in runs]}


@EXERCISE.test(
    "the loop's graph and gradient",
    points=2,
    feedback="Each doubling that runs records one MulBackward0 node, and backward goes back "
    "through every recorded doubling.",
    key_feedback={
        "graph": "the graph must hold one MulBackward0 per doubling (y = y * 2), nothing else",
        "grad": "backward multiplies by the local derivative of every recorded doubling: "
        "record one per doubling that ran",
    },
)
def loop_graph(sub):
    graphs, grads = [], []
    for start, limit in [(1.25, 30.0), (0.5, 0.25), (6.0, 100.0)]:
        w = Value(start, requires_grad=True)
        y, _ = sub.double_until(w, limit)
        graphs.append(_chain(y))
        grads.append(_backward(y, w))
    return {"graph": graphs, "grad": grads}


@EXERCISE.diagram
def draw(sub):
    w = Value(0.75, requires_grad=True)
    positive, negative = sub.branch(2.0, w), sub.branch(-1.0, w)
    return [positive, negative], {"w": w, "y (x > 0)": positive, "y (x <= 0)": negative}
