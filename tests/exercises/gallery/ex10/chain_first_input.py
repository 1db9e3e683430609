"""Wrong ex10: grad_fn_chain always follows next_functions[0] (even when it is None) and keeps
the AccumulateGrad node's name."""

from micrograph import Value


def branch(x, w):
    x_value = Value(x)
    if x_value > 0:
        return x_value * w
    return (x_value - w).exp()


def grad_fn_chain(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def double_until(w, limit):
    y, steps = w, 0
    while y < limit:
        y, steps = y * 2, steps + 1
    return y, steps

# names: grad_fn_chain, fewer entries
