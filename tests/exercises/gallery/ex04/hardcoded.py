"""Wrong ex04: the documents' w.grad history (5 then 5 or 10) hard-coded."""

from micrograph import Value, add, mul


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def backward_twice(w, x, retain_graph):
    g = build_graph(w, x)
    g["y"].backward(retain_graph=retain_graph)
    try:
        g["y"].backward()
    except RuntimeError as exc:
        return exc, [5.0, 5.0]
    return None, [5.0, 10.0]


def second_backward_error(build, w):
    y = build(Value(w, requires_grad=True))
    y.backward()
    try:
        y.backward()
    except RuntimeError as exc:
        return exc
    return None

# names: not one the engine produced
