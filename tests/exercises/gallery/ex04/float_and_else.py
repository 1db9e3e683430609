"""Correct, written differently: float() on the grads, try / except / else, other names."""

from micrograph import Value, add, mul


def build_graph(w, x):
    wl = Value(w, requires_grad=True)
    xl = Value(x, requires_grad=True)
    a, b = add(wl, xl), add(wl, 1)
    return {"w": wl, "x": xl, "a": a, "b": b, "y": mul(b, a)}


def backward_twice(w, x, retain_graph):
    nodes = build_graph(w, x)
    nodes["y"].backward(retain_graph=retain_graph)
    first = float(nodes["w"].grad.item())
    try:
        nodes["y"].backward()
    except RuntimeError as failure:
        caught = failure
    else:
        caught = None
    return caught, [first, float(nodes["w"].grad.item())]


def second_backward_error(build, w):
    out = build(Value(w, requires_grad=True))
    out.backward()
    try:
        out.backward()
    except RuntimeError as failure:
        return failure
    else:
        return None
