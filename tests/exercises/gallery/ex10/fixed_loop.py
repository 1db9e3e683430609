"""Wrong ex10: a fixed number of doublings (a loop planned ahead, as in a static graph)
instead of a loop on the data, and the if decided on the sign of w instead of x."""

from micrograph import Value


def branch(x, w):
    x_value = Value(x)
    if w > 0:
        return x_value * w
    return (x_value - w).exp()


def grad_fn_chain(y):
    names, node = [], y.grad_fn
    while node is not None and not hasattr(node, "variable"):
        names.append(node.name())
        node = next((child for child, _ in node.next_functions if child is not None), None)
    return names


def double_until(w, limit):
    y = w
    for _ in range(7):
        y = y * 2
    return y, 7

# names: is not a leaf: it was made by MulBackward0, is the other branch's y
