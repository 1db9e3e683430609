"""Correct, written differently: try / except / else, add_(1.0) through a loop variable, the
objects collected as they are named."""

from micrograph import Value


def inplace_on_leaf(w, amount):
    leaf = Value(w, requires_grad=True)
    try:
        leaf.add_(amount)
    except RuntimeError as refused:
        return {"w": leaf, "error": refused}
    else:
        return {"w": leaf, "error": None}


def rebind_then_inplace(start):
    seen = []
    a = Value(start)
    seen.append(a)
    a = a + 1
    seen.append(a)
    a.add_(1.0)
    seen.append(a)
    return seen


def modify_saved_value(w, x, times, combine):
    w_leaf = Value(w, requires_grad=True)
    x_leaf = Value(x, requires_grad=True)
    a = w_leaf + x_leaf
    y = combine(a, 1 + w_leaf)
    count = 0
    while count < times:
        a.add_(1.0)
        count += 1
    try:
        y.backward()
    except RuntimeError as failure:
        error = failure
    else:
        error = None
    return {"w": w_leaf, "x": x_leaf, "a": a, "y": y, "error": error}
