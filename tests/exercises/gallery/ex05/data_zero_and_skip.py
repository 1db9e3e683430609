"""Correct, written differently: each leaf cleared on its own, None grads skipped, the graph
built with micrograph.add / mul."""

import micrograph


def zero_grad(leaves, set_to_none=True):
    for leaf in leaves:
        if leaf.grad is None:
            continue
        if set_to_none:
            leaf.grad = None
        else:
            leaf.grad.zero_()


def grad_history(w, x, steps, reset=None):
    history = []
    for _ in range(steps):
        micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1)).backward()
        history.append(w.grad.item())
        if reset == "zero_":
            for leaf in (w, x):
                leaf.grad.zero_()
        if reset == "none":
            w.grad, x.grad = None, None
    return history
