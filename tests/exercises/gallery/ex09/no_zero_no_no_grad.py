"""Wrong ex09: inference computed with recording on, and the step never clears w.grad, so
gradients of earlier steps pile up."""

import micrograph
from micrograph import Value


def inference(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    y = (x + w) * (w + 1)
    return {"w": w, "x": x, "y": y}


def sgd_step(w, loss_fn, lr):
    loss = loss_fn(w)
    loss.backward()
    with micrograph.no_grad():
        w -= lr * w.grad
    return loss


def step_without_no_grad(w, loss_fn, lr):
    loss_fn(w).backward()
    try:
        w -= lr * w.grad
    except RuntimeError as e:
        return e
    return None


def forward(w, x, training):
    with micrograph.set_grad_enabled(training):
        return (x + w) * (w + 1)
