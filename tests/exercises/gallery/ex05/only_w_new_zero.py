"""Wrong ex05: clears only w, and zero_grad(set_to_none=False) replaces the gradient with a new
Value instead of zeroing it in place."""

from micrograph import Value


def zero_grad(leaves, set_to_none=True):
    for leaf in leaves:
        leaf.grad = None if set_to_none else Value(0.0)


def grad_history(w, x, steps, reset=None):
    history = []
    for _ in range(steps):
        y = (x + w) * (w + 1)
        y.backward()
        history.append(w.grad.item())
        if reset == "zero_":
            w.grad.zero_()
        elif reset == "none":
            w.grad = None
    return history

# names: x.grad is still exactly what backward wrote
