"""Correct ex09, written differently: set_grad_enabled(False) as the inference block, the
update with sub_, and forward choosing enable_grad or no_grad."""

import micrograph
from micrograph import Value


def inference(w, x):
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    with micrograph.set_grad_enabled(False):
        out = (w_leaf + x_leaf) * (1 + w_leaf)
    return {"w": w_leaf, "x": x_leaf, "y": out}


def sgd_step(w, loss_fn, lr):
    w.grad = None
    current = loss_fn(w)
    current.backward()
    step = lr * w.grad
    with micrograph.no_grad():
        w.sub_(step)
    return current


def step_without_no_grad(w, loss_fn, lr):
    loss_fn(w).backward()
    try:
        w.sub_(lr * w.grad)
    except RuntimeError as refused:
        return refused
    return None


def forward(w, x, training):
    mode = micrograph.enable_grad if training else micrograph.no_grad
    with mode():
        return (w + x) * (1 + w)
