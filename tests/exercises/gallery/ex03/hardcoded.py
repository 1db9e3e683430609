"""Wrong ex03: the documents' gradients hard-coded, and a warning text returned for every Value."""

from micrograph import Value, add, mul

TEXT = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
        "attribute won't be populated during autograd.backward().")


def build_graph(w, x):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x, w), add(w, 1)
    return {"w": w, "x": x, "a": a, "b": b, "y": mul(a, b)}


def grads_after_backward(w, x):
    return {"w": 5.0, "x": 2.0, "a": None, "b": None, "y": None}


def grad_warning(v):
    return TEXT


def backward_retaining(w, x, names):
    g = build_graph(w, x)
    for name in names:
        g[name].retain_grad()
    g["y"].backward()
    return g

# names: ran no backward pass
