"""ex06 requires_grad: propagation, ``x = x + 1`` versus ``x.data.copy_(x.data + 1)``.

Every probe calls the submission on inputs that are not in the exercise text (w = 3, x = -1)
nor the documents' (w = 1, x = 2), several per test.
"""

from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import grad, num, value

EXERCISE = Exercise(
    "ex06", "requires_grad: propagation and changing a leaf", module="ex06_requires_grad"
)

FLAGS = [(False, False), (False, True), (True, False), (True, True)]
NODES = ("w", "x", "a", "b", "y")


def _flags(v: object) -> list | str:
    """[requires_grad, is_leaf, grad_fn name] of a Value: what propagation decides."""
    seen = value(v)
    if isinstance(seen, str):
        return seen
    return [seen["requires_grad"], seen["is_leaf"], seen["grad_fn"]]


def _version(v: object) -> int | str:
    if not isinstance(v, Value):
        return f"not a Value: {type(v).__name__}"
    return int(v._version)


@EXERCISE.test(
    "a result requires grad if an input does",
    points=2,
    public=True,
    feedback="Create w and x with the flags given, then a = x + w, b = w + 1, y = a * b.",
    key_feedback={
        "w": "w must be a new leaf with requires_grad set to the flag given",
        "x": "x must be a new leaf with requires_grad set to the flag given",
        "a": "a = x + w requires grad because x does, so it gets a grad_fn and is not a leaf",
        "b": "b = w + 1 depends on w alone: with w not requiring grad it records nothing and "
        "is a leaf",
        "y": "y = a * b requires grad because a does",
    },
)
def propagation_public(sub):
    graphs = [sub.build(w, x, False, True) for w, x in [(0.5, -2.5), (-1.5, 4.0)]]
    return {key: [value(g[key]) for g in graphs] for key in NODES}


@EXERCISE.test(
    "every combination of flags",
    points=2,
    feedback="A result requires grad (and has a grad_fn) exactly when at least one of its inputs "
    "requires grad; otherwise it is a leaf with grad_fn None.",
)
def propagation_all(sub):
    observed = {}
    for w_flag, x_flag in FLAGS:
        g = sub.build(2.25, -0.75, w_flag, x_flag)
        observed[f"w={w_flag}, x={x_flag}"] = {key: _flags(g[key]) for key in NODES}
    return observed


@EXERCISE.test(
    "only leaves that require grad get a gradient",
    points=1,
    feedback="Backward fills .grad only for leaves created with requires_grad=True; a leaf "
    "without it stays None.",
)
def leaf_grads(sub):
    observed = {}
    for w_flag, x_flag in FLAGS[1:]:
        g = sub.build(-0.5, 3.5, w_flag, x_flag)
        g["y"].backward()
        observed[f"w={w_flag}, x={x_flag}"] = [grad(g["w"]), grad(g["x"])]
    return observed


@EXERCISE.test(
    "x = x + 1 makes x a non-leaf",
    points=2,
    public=True,
    feedback="Rebind with x = x + 1 (a new Value), then build y from the new x and backpropagate.",
    key_feedback={
        "x": "x = x + 1 makes a new Value that the addition records: it is not a leaf, so "
        "backward does not keep its gradient",
        "x_data": "the new x is computed from the leaf you made from the x given",
    },
)
def rebinding_public(sub):
    runs = [sub.shift_by_rebinding(w, x) for w, x in [(0.5, 1.5), (-2.0, 0.25)]]
    return {
        "x": [[_flags(r["x"]), grad(r["x"])] for r in runs],
        "x_data": [num(r["x"]) for r in runs],
    }


@EXERCISE.test(
    "the original leaf still gets its gradient",
    points=2,
    feedback="Keep x0 = x before rebinding; the gradient flows through the new x down to x0.",
    key_feedback={
        "x0_grad": "the original leaf x0 is still in the graph, under the new x: backward "
        "reaches it through the addition",
        "x0_data": "x0 is the leaf made from the x given, and x = x + 1 leaves its value alone",
        "x0_leaf": "x0 must be the leaf you created, with requires_grad=True",
        "y": "y = (x + w) * (w + 1) must use the new x, not x0",
    },
)
def rebinding_leaf(sub):
    runs = [sub.shift_by_rebinding(w, x) for w, x in [(1.5, -4.0), (-3.25, 0.5), (0.0, 7.0)]]
    return {
        "x0_grad": [grad(r["x0"]) for r in runs],
        "x0_data": [num(r["x0"]) for r in runs],
        "x0_leaf": [_flags(r["x0"]) for r in runs],
        "y": [num(r["y"]) for r in runs],
    }


@EXERCISE.test(
    "x.data.copy_ keeps x a leaf",
    points=2,
    feedback="Change the value with x.data.copy_(x.data + 1): x keeps requires_grad=True, no "
    "grad_fn, and is still a leaf.",
    key_feedback={
        "x": "after x.data.copy_(x.data + 1), x is the same leaf with a value one larger",
    },
)
def data_copy_leaf(sub):
    runs = [sub.shift_by_data_copy(w, x) for w, x in [(2.5, -1.5), (-0.75, 6.0)]]
    return {"x": [[num(r["x"]), _flags(r["x"])] for r in runs]}


@EXERCISE.test(
    "gradient after copy_",
    points=1,
    feedback="After the copy_, build y from w and x and call y.backward(): x is still the leaf "
    "that receives its gradient.",
    key_feedback={
        "x_grad": "x is still a leaf that requires grad, so backward fills x.grad",
        "y": "y = (x + w) * (w + 1) uses x's new value",
        "version": "x._version changed: make the change through x.data, which the version "
        "counter does not see",
    },
)
def data_copy_grad(sub):
    runs = [sub.shift_by_data_copy(w, x) for w, x in [(4.0, 0.5), (-1.25, -2.0), (0.5, 0.0)]]
    return {
        "x_grad": [grad(r["x"]) for r in runs],
        "y": [num(r["y"]) for r in runs],
        "version": [_version(r["x"]) for r in runs],
    }


@EXERCISE.diagram
def draw(sub):
    r = sub.shift_by_rebinding(0.5, 1.5)
    return [r["y"]], r
