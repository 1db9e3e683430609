"""grad_fn._saved_self / _saved_other / _saved_result ... by torch's names, and their errors after freeing."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    x = B.value(3.0, requires_grad=True)
    c = B.value(5.0)
    ops = {
        "w * x": lambda: w * x, "w * c": lambda: w * c, "w / x": lambda: w / x, "w ** 3.0": lambda: w ** 3.0,
        "w ** x": lambda: w ** x, "2.0 ** w": lambda: 2.0 ** w, "exp": lambda: w.exp(), "log": lambda: w.log(),
        "sqrt": lambda: w.sqrt(), "sin": lambda: w.sin(), "cos": lambda: w.cos(), "tanh": lambda: w.tanh(),
        "sigmoid": lambda: w.sigmoid(), "relu": lambda: w.relu(), "abs": lambda: w.abs(),
        "reciprocal": lambda: w.reciprocal(), "w + x": lambda: w + x, "w - x": lambda: w - x,
        "tan": lambda: w.tan(), "log1p": lambda: w.log1p(), "maximum": lambda: B.maximum(w, x),
        "where": lambda: B.where(w > 0, w, x),
    }
    names = ("self", "other", "result", "exponent", "alpha", "condition")
    for label, f in ops.items():
        y = f()
        node = y.grad_fn
        for n in names:
            rec(f"{label}: _saved_{n}", lambda: getattr(node, f"_saved_{n}"))
            rec(f"{label}: _saved_{n} value", getattr(node, f"_saved_{n}", "absent"))
    y = w * x
    rec("saved self is w", y.grad_fn._saved_self is w)
    rec("saved other is x", y.grad_fn._saved_other is x)
    e = w.exp()
    rec("saved result is not the output", e.grad_fn._saved_result is e)
    rec("saved result's grad_fn", e.grad_fn._saved_result.grad_fn)
    rec("saved result's grad_fn is the node", e.grad_fn._saved_result.grad_fn is e.grad_fn)
    a = w * 1
    y = a * x
    rec("saved non-leaf is itself", y.grad_fn._saved_self is a)
    a.add_(1)
    rec("read after an in-place change", lambda: y.grad_fn._saved_self)
    rec("the other one is fine", y.grad_fn._saved_other)
    for label in ("w * x", "exp", "tanh", "w ** x", "relu"):  # (w ** 3.0's number exponent: see the README)
        y = ops[label]()
        node = y.grad_fn
        y.backward()
        for n in ("self", "other", "result", "exponent"):
            rec(f"{label} after backward: _saved_{n}", lambda: getattr(node, f"_saved_{n}"))
    y = ops["w * x"]()
    y.backward(retain_graph=True)
    rec("after retain_graph: _saved_self", y.grad_fn._saved_self)
    y = w + x
    y.backward()
    rec("add after backward: _saved_alpha", y.grad_fn._saved_alpha)
    rec("unknown name", lambda: (w * x).grad_fn._saved_nothing)
