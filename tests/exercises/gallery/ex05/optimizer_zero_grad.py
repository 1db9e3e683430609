"""Correct, written differently: micrograph.optim.SGD's zero_grad clears the leaves (it skips a
leaf without a gradient), and the loop reads the step's gradient through float()."""

from micrograph import optim


def zero_grad(leaves, set_to_none=True):
    optim.SGD(list(leaves), lr=0.1).zero_grad(set_to_none=set_to_none)


def grad_history(w, x, steps, reset=None):
    seen = []
    step = 0
    while step < steps:
        loss = (w + 1) * (w + x)
        loss.backward()
        seen.append(float(w.grad.item()))
        if reset == "zero_":
            zero_grad([w, x], set_to_none=False)
        elif reset == "none":
            zero_grad([w, x])
        step += 1
    return seen
