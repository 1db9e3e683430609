"""relu and abs around 0, -0.0 and nan; negation of zero keeps its sign."""


def run(B, rec):
    points = (2.5, -2.5, 0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1e-300, -1e-300)
    for op in ("relu", "abs", "neg"):
        for p in points:
            w = B.value(p, requires_grad=True)
            y = getattr(B, op)(w)
            y.backward()
            rec(f"{op}({p!r})", y)
            rec(f"{op}'({p!r})", w.grad)
    for p in (0.0, -0.0):
        w = B.value(p, requires_grad=True)
        rec(f"-w at {p!r}", -w)
        rec(f"w - w at {p!r}", w - w)
        rec(f"w * -1 at {p!r}", w * -1)
        rec(f"0 - w at {p!r}", 0 - w)
        rec(f"w + 0.0 at {p!r}", w + 0.0)
        rec(f"w * 0.0 at {p!r}", w * 0.0)
        rec(f"cos'(w) at {p!r}", B.grad(w.cos(), w))
        rec(f"sin'(w)*0 at {p!r}", B.grad(w.sin() * 0.0, w))
        rec(f"tanh'(w) at {p!r}", B.grad(w.tanh(), w))
