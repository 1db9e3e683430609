"""Wrong ex05: the documents' histories (5, 10, 15, 20 and 5, 5, 5, 5) hard-coded."""


def zero_grad(leaves, set_to_none=True):
    for leaf in leaves:
        if set_to_none:
            leaf.grad = None
        elif leaf.grad is not None:
            leaf.grad.zero_()


def grad_history(w, x, steps, reset=None):
    if reset is None:
        return [5.0 * (i + 1) for i in range(steps)]
    return [5.0] * steps

# names: ran no backward pass
