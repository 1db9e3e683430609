"""create_graph through every op: the derivative's node, its next_functions, the second derivative and its node (tan and log1p's formulas add a number: AddBackward1)."""


def run(B, rec):
    w = B.value(0.7, requires_grad=True)
    x = B.value(1.3, requires_grad=True)
    c = B.value(2.5)
    unary = {
        "exp": lambda v: v.exp(), "log": lambda v: v.log(), "sqrt": lambda v: v.sqrt(), "sin": lambda v: v.sin(),
        "cos": lambda v: v.cos(), "tanh": lambda v: v.tanh(), "sigmoid": lambda v: v.sigmoid(),
        "relu": lambda v: v.relu(), "abs": lambda v: v.abs(), "neg": lambda v: -v, "reciprocal": lambda v: v.reciprocal(),
        "tan": lambda v: v.tan(), "log1p": lambda v: v.log1p(), "square": lambda v: v.square(),
        "clamp": lambda v: v.clamp(0.0, 1.0), "clamp_min": lambda v: v.clamp(min=0.1), "clamp_max": lambda v: v.clamp(max=0.5),
        "clamp V": lambda v: v.clamp(B.value(0.1), B.value(0.5)),
        "pow 2": lambda v: v ** 2, "pow 2.0": lambda v: v ** 2.0, "pow 0.5": lambda v: v ** 0.5, "pow -1": lambda v: v ** -1,
        "pow 1": lambda v: v ** 1, "pow 0": lambda v: v ** 0, "pow 3": lambda v: v ** 3,
        "pow x": lambda v: v ** x, "pow c": lambda v: v ** c, "2 ** v": lambda v: 2 ** v, "c ** v": lambda v: c ** v,
        "x ** v": lambda v: x ** v,
        "mul 3": lambda v: v * 3, "3 * v": lambda v: 3 * v, "mul 3.0": lambda v: v * 3.0, "mul c": lambda v: v * c,
        "mul x": lambda v: v * x, "mul v": lambda v: v * v,
        "div 3": lambda v: v / 3, "3 / v": lambda v: 3 / v, "div c": lambda v: v / c, "c / v": lambda v: c / v,
        "div x": lambda v: v / x, "x / v": lambda v: x / v,
        "add 2": lambda v: v + 2, "sub 2": lambda v: v - 2, "2 - v": lambda v: 2 - v, "sub x alpha": lambda v: B.sub(v, x, alpha=2),
        "sub alpha from x": lambda v: B.sub(x, v, alpha=2), "add alpha": lambda v: B.add(x, v, alpha=3),
        "add alpha 1.5": lambda v: B.add(x, v, alpha=1.5), "sub c alpha": lambda v: B.sub(v, c, alpha=2),
        "where": lambda v: B.where(v > 1, v * v, v * 3), "where x": lambda v: B.where(v > 1, x, v * v),
        "maximum": lambda v: B.maximum(v * v, x), "minimum": lambda v: B.minimum(v * v, x),
        "maximum c": lambda v: B.maximum(v * v, c), "minimum cst": lambda v: B.minimum(v ** 3, c),
        "sum": lambda v: (v * v).sum(), "mean": lambda v: (v * v).mean(),
        "B.sum": lambda v: B.sum([v * v, v * x]),
    }
    for label, f in unary.items():
        def go(f=f):
            y = f(w)
            (g,) = B.grad(y, w, create_graph=True)
            out = [y.grad_fn, g, g.grad_fn]
            if g.grad_fn is not None:
                out.append([n for n, _ in g.grad_fn.next_functions])
                (gg,) = B.grad(g, w, create_graph=True, allow_unused=True)
                out.append(gg)
                out.append(None if gg is None else gg.grad_fn)
            return out
        r = rec(label, go)
        rec(label + " obs", r)
