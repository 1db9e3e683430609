"""Wrong ex04: retain_graph=True on every first call, so no second backward ever fails."""

from micrograph import Value, add, mul


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def backward_twice(w, x, retain_graph):
    g = build_graph(w, x)
    g["y"].backward(retain_graph=True)
    history = [g["w"].grad.item()]
    error = None
    try:
        g["y"].backward()
    except RuntimeError as exc:
        error = exc
    return error, history + [g["w"].grad.item()]


def second_backward_error(build, w):
    y = build(Value(w, requires_grad=True))
    y.backward(retain_graph=True)
    try:
        y.backward()
    except RuntimeError as exc:
        return exc
    return None
