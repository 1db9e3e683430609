"""Wrong ex04: returns the error's message (a str) instead of the exception object."""

from micrograph import Value, add, mul


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def backward_twice(w, x, retain_graph):
    g = build_graph(w, x)
    g["y"].backward(retain_graph=retain_graph)
    history = [g["w"].grad.item()]
    error = None
    try:
        g["y"].backward()
    except RuntimeError as exc:
        error = str(exc)
    return error, history + [g["w"].grad.item()]


def second_backward_error(build, w):
    y = build(Value(w, requires_grad=True))
    y.backward()
    try:
        y.backward()
    except RuntimeError as exc:
        return str(exc)
    return None
