"""Wrong ex05: builds every step from new leaves, so nothing accumulates in the given ones."""

from micrograph import Value


def zero_grad(leaves, set_to_none=True):
    for leaf in leaves:
        if set_to_none:
            leaf.grad = None
        elif leaf.grad is not None:
            leaf.grad.zero_()


def grad_history(w, x, steps, reset=None):
    history = []
    for _ in range(steps):
        w2 = Value(w.item(), requires_grad=True)
        x2 = Value(x.item(), requires_grad=True)
        y = (x2 + w2) * (w2 + 1)
        y.backward()
        history.append(w2.grad.item())
    return history

# names: no backward pass of your code wrote w.grad, a leaf your code made
