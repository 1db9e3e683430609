"""grad_fn names of the unary ops, as methods and as module functions."""

OPS = ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs")


def run(B, rec):
    w = B.value(0.625, requires_grad=True)
    for op in OPS:
        method = getattr(w, op)()
        function = getattr(B, op)(w)
        rec(f"w.{op}()", method)
        rec(f"w.{op}().grad_fn", method.grad_fn)
        rec(f"{op}(w)", function)
        rec(f"{op}(w).grad_fn", function.grad_fn)
        rec(f"{op}(w).is_leaf", function.is_leaf)
    c = B.value(0.625)
    for op in OPS:
        rec(f"{op}(const).grad_fn", getattr(B, op)(c).grad_fn)
