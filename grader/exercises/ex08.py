"""ex08 detach: shared data, a cut in the graph, and backward of a detached value.

Every probe calls the submission on inputs that are not in the exercise text (0.5, -8) nor the
documents' (w = 1, x = 2, 999), several per test.
"""

from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import caught, grad, num, value

EXERCISE = Exercise("ex08", "detach: shared data, no graph", module="ex08_detach")



def _inputs(v: object) -> list | str:
    """The names of the nodes y.grad_fn sends gradients to (None: an input not tracked)."""
    if not isinstance(v, Value) or v.grad_fn is None:
        return "not a Value with a grad_fn"
    return [None if node is None else str(node.name()) for node, _ in v.grad_fn.next_functions]


@EXERCISE.test(
    "the detached copy shares w's data",
    points=2,
    public=True,
    feedback="Take w_detach = w.detach() after backward and set it in place with fill_ or copy_.",
    key_feedback={
        "w": "w_detach shares w's number: setting w_detach in place changes w itself",
    },
)
def shares_public(sub):
    runs = [sub.detach_shares_data(w, x, n) for w, x, n in [(0.25, 1.5, 42.0), (-2.0, 3.0, -7.5)]]
    return {"w": [num(r["w"]) for r in runs]}


@EXERCISE.test(
    "w stays a leaf and keeps its gradient",
    points=2,
    feedback="Backpropagate before detaching; the change through w_detach keeps w a leaf that "
    "requires grad.",
    key_feedback={
        "w": "w must hold the number written through w_detach and stay a leaf that requires "
        "grad, with no grad_fn",
        "grads": "backward ran before the change, so the gradients are those at the old w: "
        "the change through w_detach does not touch them",
        "y": "y = (x + w) * (w + 1) was computed before the change and keeps its value",
    },
)
def w_kept(sub):
    runs = [
        sub.detach_shares_data(w, x, n) for w, x, n in [(1.5, -0.5, 10.0), (-3.0, 2.5, 0.0)]
    ]
    return {
        "w": [value(r["w"]) for r in runs],
        "grads": [[grad(r["w"]), grad(r["x"])] for r in runs],
        "y": [num(r["y"]) for r in runs],
    }


@EXERCISE.test(
    "the detached copy is a leaf without grad",
    points=1,
    feedback="w.detach() is a new Value (not w itself) that does not require grad, has no "
    "grad_fn, and is a leaf.",
)
def detached_attributes(sub):
    runs = [sub.detach_shares_data(w, x, n) for w, x, n in [(2.0, 0.25, -1.0), (0.75, 4.0, 3.5)]]
    return [[value(r["w_detach"]), r["w_detach"] is r["w"]] for r in runs]


@EXERCISE.test(
    "w * w.detach() sends gradient through one factor",
    points=2,
    public=True,
    feedback="Build y_full = w_full * w_full and y_cut = w_cut * w_cut.detach() on two leaves, "
    "then backpropagate both.",
    key_feedback={
        "full": "w_full * w_full reaches w_full along two paths: both count",
        "cut": "no gradient flows through w_cut.detach(): only the other factor counts",
    },
)
def cut_public(sub):
    runs = [sub.detach_cuts_graph(w) for w in (1.5, -4.0)]
    return {
        "full": [grad(r["w_full"]) for r in runs],
        "cut": [grad(r["w_cut"]) for r in runs],
    }


@EXERCISE.test(
    "same value, different graph",
    points=2,
    feedback="detach changes the graph, not the value: both products equal w * w, but y_cut's "
    "node has only one tracked input.",
    key_feedback={
        "values": "y_full and y_cut both hold w * w",
        "inputs": "y_cut.grad_fn.next_functions must hold None for the detached factor",
        "grads": "the gradient through a detached factor is cut: w_cut gets only the other "
        "factor's path, w_full gets both",
    },
)
def cut_graph(sub):
    runs = [sub.detach_cuts_graph(w) for w in (0.625, -2.5, 3.0)]
    return {
        "values": [[num(r["y_full"]), num(r["y_cut"])] for r in runs],
        "inputs": [[_inputs(r["y_full"]), _inputs(r["y_cut"])] for r in runs],
        "grads": [[grad(r["w_full"]), grad(r["w_cut"])] for r in runs],
    }


@EXERCISE.test(
    "backward of a detached value raises",
    points=1,
    feedback="z = (w * 2).detach() does not require grad and has no grad_fn: catch the "
    "RuntimeError of z.backward() and return it.",
)
def detached_backward(sub):
    return [caught(sub.backward_of_detached(w)) for w in (0.5, -6.0)]


@EXERCISE.diagram
def draw(sub):
    r = sub.detach_cuts_graph(1.5)
    return [r["y_full"], r["y_cut"]], r
