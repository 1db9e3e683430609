"""Wrong ex07: always a product (combine ignored) and a single in-place change (times ignored),
as in the documents' example."""

from micrograph import Value


def inplace_on_leaf(w, amount):
    w = Value(w, requires_grad=True)
    try:
        w.add_(amount)
    except RuntimeError as e:
        return {"w": w, "error": e}
    return {"w": w, "error": None}


def rebind_then_inplace(start):
    a0 = a = Value(start)
    a = a + 1
    a1 = a
    a += 1
    return [a0, a1, a]


def modify_saved_value(w, x, times, combine):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = x + w
    y = a * (w + 1)
    a.add_(1)
    try:
        y.backward()
    except RuntimeError as e:
        return {"w": w, "x": x, "a": a, "y": y, "error": e}
    return {"w": w, "x": x, "a": a, "y": y, "error": None}
