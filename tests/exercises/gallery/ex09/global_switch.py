"""Wrong ex09: grad mode switched with plain calls that are never undone, and the "failing"
update done under no_grad, where it does not fail."""

import micrograph
from micrograph import Value


def inference(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    micrograph.set_grad_enabled(False)
    y = (x + w) * (w + 1)
    return {"w": w, "x": x, "y": y}


def sgd_step(w, loss_fn, lr):
    w.grad = None
    loss = loss_fn(w)
    loss.backward()
    with micrograph.no_grad():
        w -= lr * w.grad
    return loss


def step_without_no_grad(w, loss_fn, lr):
    loss_fn(w).backward()
    with micrograph.no_grad():
        w -= lr * w.grad
    return None


def forward(w, x, training):
    micrograph.set_grad_enabled(training)
    return (x + w) * (w + 1)

# names: grad mode still off
