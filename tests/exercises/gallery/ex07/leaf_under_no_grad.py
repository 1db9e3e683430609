"""Wrong ex07: the leaf changed under no_grad (so nothing is raised), and the error returned as
a made-up string."""

import micrograph
from micrograph import Value


def inplace_on_leaf(w, amount):
    w = Value(w, requires_grad=True)
    with micrograph.no_grad():
        w.add_(amount)
    return {"w": w, "error": "a leaf Variable that requires grad is being used in an in-place operation."}


def rebind_then_inplace(start):
    a0 = a = Value(start)
    a = a + 1
    a1 = a
    a += 1
    return [a0, a1, a]


def modify_saved_value(w, x, times, combine):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = x + w
    y = combine(a, w + 1)
    for _ in range(times):
        a.add_(1)
    try:
        y.backward()
    except RuntimeError as e:
        return {"w": w, "x": x, "a": a, "y": y, "error": e}
    return {"w": w, "x": x, "a": a, "y": y, "error": None}

# names: changed in place
