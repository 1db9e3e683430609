"""Three orders of create_graph derivatives of pow/div/sub/add with alpha/clamp/where/maximum/minimum and every unary op, at 0, a negative and a positive point: values, node types, next_functions."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    def chain(y, w, depth=3):
        out = []
        g = y
        for k in range(depth):
            try:
                (g,) = B.grad(g, w, create_graph=True, allow_unused=True)
            except Exception as e:
                out.append("error " + type(e).__name__ + ": " + str(e).splitlines()[0][:60])
                break
            if g is None:
                out.append(None)
                break
            out.append((g, g.grad_fn, [n for n, _ in g.grad_fn.next_functions] if g.grad_fn is not None else None))
        return out
    for v0 in (0.0, -1.5, 2.0):
        w = B.value(v0, requires_grad=True)
        x = B.value(0.75, requires_grad=True)
        c = B.value(-2.0)
        cases = {
            "w**3": lambda: w ** 3, "w**-2": lambda: w ** -2, "w**0.5": lambda: w ** 0.5, "w**x": lambda: w ** x,
            "x**w": lambda: x ** w, "c**w": lambda: c ** w, "(-2)**w": lambda: (-2.0) ** w, "w**c": lambda: w ** c,
            "w/x": lambda: w / x, "x/w": lambda: x / w, "1/w": lambda: 1 / w, "w/2": lambda: w / 2, "w/c": lambda: w / c,
            "sub alpha": lambda: B.sub(w * w, x, alpha=3), "sub alpha rev": lambda: B.sub(x, w * w, alpha=0.5),
            "add alpha": lambda: B.add(x, w * w, alpha=-2), "rsub": lambda: 3 - w * w, "neg sq": lambda: -(w * w),
            "clamp": lambda: (w * w).clamp(0.5, 3.0), "clamp V": lambda: (w * w).clamp(x, B.value(3.0)),
            "clamp min V": lambda: (w * w).clamp(min=x), "clamp_max": lambda: (w * w).clamp_max(1.0),
            "where": lambda: B.where(w > 0, w * w, w * x), "where const": lambda: B.where(w > 0, c, w * w),
            "maximum": lambda: B.maximum(w * w, x), "minimum": lambda: B.minimum(w * w, x * x),
            "max w w": lambda: B.maximum(w, w), "abs": lambda: (w * w * w).abs(), "relu": lambda: (w * w * w).relu(),
            "sigmoid": lambda: w.sigmoid(), "tanh": lambda: w.tanh(), "exp": lambda: (w * 2).exp(),
            "log": lambda: (w * w + 1).log(), "sqrt": lambda: (w * w + 1).sqrt(), "sin": lambda: w.sin(), "cos": lambda: w.cos(),
            "tan": lambda: w.tan(), "log1p": lambda: (w * w).log1p(), "square": lambda: w.square(), "reciprocal": lambda: (w + 3).reciprocal(),
            "mul scalar": lambda: w * 2.5 * w, "scalar mul": lambda: 2.5 * (w * w), "div scalar sq": lambda: (w * w) / 4,
        }
        for label, f in cases.items():
            def go(f=f):
                return chain(f(), w)
            rec(f"{label} at {v0}", go)
