"""Wrong ex10: both branches recorded every time and mixed by a 0/1 mask, as a static graph
would do: the same values and gradients, but not the graph of the branch taken."""

from micrograph import Value


def branch(x, w):
    x_value = Value(x)
    mask = 1.0 if x > 0 else 0.0
    return mask * (x_value * w) + (1 - mask) * (x_value - w).exp()


def grad_fn_chain(y):
    names, node = [], y.grad_fn
    while node is not None and not hasattr(node, "variable"):
        names.append(node.name())
        node = next((child for child, _ in node.next_functions if child is not None), None)
    return names


def double_until(w, limit):
    y, steps = w, 0
    while y < limit:
        y, steps = y * 2, steps + 1
    return y, steps

# names: 's graph
