"""``type(y.grad_fn).__name__`` as the source documents print it, for every op a student meets (it is
the node's name: ``PowBackward0`` for ``x ** 2`` as for ``x ** 2.5``), and the AttributeError an
unknown attribute of a node raises, which names that type."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.5, requires_grad=True)
    ops = {
        "w + x": lambda: w + x, "w - x": lambda: w - x, "w * x": lambda: w * x, "w / x": lambda: w / x,
        "w + 1": lambda: w + 1, "1 - w": lambda: 1 - w, "w * 2": lambda: w * 2, "2 / w": lambda: 2 / w,
        "w ** 2": lambda: w ** 2, "w ** 2.5": lambda: w ** 2.5, "w ** -1": lambda: w ** -1, "w ** x": lambda: w ** x,
        "2 ** w": lambda: 2 ** w, "w.pow(3)": lambda: w.pow(3), "w.square()": lambda: w.square(), "-w": lambda: -w,
        "exp": lambda: w.exp(), "log": lambda: w.log(), "sqrt": lambda: w.sqrt(), "sin": lambda: w.sin(),
        "cos": lambda: w.cos(), "tanh": lambda: w.tanh(), "sigmoid": lambda: w.sigmoid(), "relu": lambda: w.relu(),
        "abs": lambda: w.abs(), "clamp": lambda: w.clamp(0, 1), "sum": lambda: B.sum([w, x]),
        "w.sum()": lambda: w.sum(), "w.mean()": lambda: w.mean(), "clone": lambda: w.clone(),
    }
    for label, f in ops.items():
        y = f()
        rec(f"{label}: type name", type(y.grad_fn).__name__)
        rec(f"{label}: name()", y.grad_fn.name())
        rec(f"{label}: unknown attribute", lambda: y.grad_fn._saved_nothing)
    rec("leaf's AccumulateGrad type name", type((w * 2).grad_fn.next_functions[0][0]).__name__)
