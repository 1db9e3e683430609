"""ex09 no_grad: inference, the gradient-descent step, and set_grad_enabled.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
The probes make the leaves and loss functions for ``sgd_step`` themselves, so they can watch the
very object the student must update.  Each probe starts with grad mode on, so a submission that
leaves recording switched off loses the test that checks for it, not every test after it.
"""

import functools

import micrograph
from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import caught, grad, num, raised, value

EXERCISE = Exercise("ex09", "no_grad: computing without a graph", module="ex09_no_grad")

# Losses for sgd_step: (starting w, loss as a function of w, learning rate).
LOSSES = [
    (-1.0, lambda w: (w - 2) ** 2, 0.1),
    (0.5, lambda w: (w + 3.0) * (w + 1), 0.05),
    (1.5, lambda w: (w * 0.5).exp() - w, 0.25),
]


def _grad_mode_on(probe):
    """Start the probe with grad mode on, whatever an earlier call left behind."""

    @functools.wraps(probe)
    def run(sub):
        micrograph.set_grad_enabled(True)
        return probe(sub)

    return run



def _version(v: Value) -> int:
    return int(v._version)


@EXERCISE.test(
    "inference records nothing",
    points=2,
    public=True,
    feedback="Compute y inside `with micrograph.no_grad():` from leaves that require grad.",
    key_feedback={
        "y": "y computed under no_grad has the right value, does not require grad, has no "
        "grad_fn, and is a leaf",
    },
)
@_grad_mode_on
def inference_public(sub):
    return {"y": [value(sub.inference(w, x)["y"]) for w, x in [(0.5, -1.5), (2.0, 0.25)]]}


@EXERCISE.test(
    "after inference",
    points=2,
    feedback="no_grad changes what is recorded, not the inputs, and only inside its with-block.",
    key_feedback={
        "inputs": "w and x are still leaves that require grad",
        "mode": "grad mode must be on again after inference returns: use the with-block form",
        "backward": "y records no graph, so y.backward() raises: compute y under no_grad",
    },
)
@_grad_mode_on
def after_inference(sub):
    runs, modes = [], []
    for w, x in [(-2.5, 1.0), (3.0, 0.5)]:
        runs.append(sub.inference(w, x))
        modes.append(micrograph.is_grad_enabled())
    return {
        "inputs": [[value(r["w"]), value(r["x"])] for r in runs],
        "mode": modes,
        "backward": [raised(lambda y=r["y"]: y.backward()) for r in runs],
    }


@EXERCISE.test(
    "a gradient step under no_grad",
    points=2,
    public=True,
    feedback="Clear w.grad, compute the loss, backpropagate, then `w -= lr * w.grad` inside "
    "no_grad; return the loss.",
    key_feedback={
        "loss": "return the loss computed before the update",
        "grad": "w.grad must hold d(loss)/dw from this step's backward (clear it first)",
        "w": "w must move by -lr * w.grad and stay a leaf that requires grad",
    },
)
@_grad_mode_on
def step_public(sub):
    losses, grads, ws = [], [], []
    for start, loss_fn, lr in LOSSES[:2]:
        w = Value(start, requires_grad=True)
        losses.append(num(sub.sgd_step(w, loss_fn, lr)))
        grads.append(grad(w))
        ws.append(value(w))
    return {"loss": losses, "grad": grads, "w": ws}


@EXERCISE.test(
    "the step changes the leaf in place",
    points=1,
    feedback="Update the Value you were given in place (w -= ...) inside no_grad: a new Value "
    "(w = w - ...) is not the parameter, and a change through w.data is not counted.",
)
@_grad_mode_on
def step_in_place(sub):
    observed = []
    for start, loss_fn, lr in LOSSES:
        w = Value(start, requires_grad=True)
        sub.sgd_step(w, loss_fn, lr)
        observed.append([num(w), _version(w), w.is_leaf])
    return observed


@EXERCISE.test(
    "three steps descend",
    points=2,
    feedback="Each step must clear w.grad first (else the gradients of earlier steps add up), "
    "then move the w it was given, in place, by -lr * w.grad.",
)
@_grad_mode_on
def three_steps(sub):
    trajectories = []
    for start, loss_fn, lr in LOSSES:
        w = Value(start, requires_grad=True)
        path = []
        for _ in range(3):
            loss = sub.sgd_step(w, loss_fn, lr)
            path.append([num(loss), num(w), grad(w)])
        trajectories.append(path)
    return trajectories


@EXERCISE.test(
    "without no_grad the step raises",
    points=2,
    feedback="Backpropagate, then try `w -= lr * w.grad` outside no_grad and return the "
    "RuntimeError it raises.",
    key_feedback={
        "error": "outside no_grad, w -= ... is an in-place change of a leaf that requires grad: "
        "catch that RuntimeError and return it",
        "w": "the refused update leaves w as it was (value and version), with the gradient of "
        "this backward",
    },
)
@_grad_mode_on
def step_refused(sub):
    errors, ws = [], []
    for start, loss_fn, lr in LOSSES:
        w = Value(start, requires_grad=True)
        errors.append(caught(sub.step_without_no_grad(w, loss_fn, lr)))
        ws.append([value(w), _version(w)])
    return {"error": errors, "w": ws}


@EXERCISE.test(
    "set_grad_enabled switches recording",
    points=2,
    feedback="Compute y inside `with micrograph.set_grad_enabled(training):`.",
    key_feedback={
        "recorded": "y is recorded (it has a grad_fn and is not a leaf) exactly when training is "
        "True, even inside a no_grad block",
        "value": "the grad mode changes what is recorded, not y's value: compute y from the w "
        "and x given",
        "mode": "the grad mode must be what it was before the call: use the with-block form",
    },
)
@_grad_mode_on
def grad_mode_switch(sub):
    recorded, values, modes = [], [], []
    for outer in (micrograph.enable_grad, micrograph.no_grad):
        for training, (w, x) in [(True, (1.5, -0.5)), (False, (-2.0, 4.0))]:
            leaf = Value(w, requires_grad=True)
            with outer():
                y = sub.forward(leaf, x, training)
                modes.append(micrograph.is_grad_enabled())
            micrograph.set_grad_enabled(True)
            seen = value(y)
            recorded.append(seen if isinstance(seen, str) else [seen["grad_fn"], seen["is_leaf"]])
            values.append(num(y))
    return {"recorded": recorded, "value": values, "mode": modes}


@EXERCISE.diagram
def draw(sub):
    w = Value(1.5, requires_grad=True)
    trained, evaluated = sub.forward(w, -0.5, True), sub.forward(w, -0.5, False)
    return [trained, evaluated], {"w": w, "y (training)": trained, "y (evaluation)": evaluated}
