"""Every op a student meets, its value and gradient at the points where formulas break: zeros of both
signs, ones, negatives, infinities, nan, huge and tiny numbers, ties of max/min/clamp, and pow with
special bases and exponents."""

POINTS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-300, -1e-300, 800.0, -800.0, float("inf"), float("-inf"), float("nan")]


def run(B, rec):
    unary = {
        "exp": lambda v: v.exp(), "log": lambda v: v.log(), "sqrt": lambda v: v.sqrt(), "sin": lambda v: v.sin(),
        "cos": lambda v: v.cos(), "tanh": lambda v: v.tanh(), "sigmoid": lambda v: v.sigmoid(),
        "relu": lambda v: v.relu(), "abs": lambda v: v.abs(), "neg": lambda v: -v, "square": lambda v: v.square(),
        "tan": lambda v: v.tan(), "log1p": lambda v: v.log1p(), "reciprocal": lambda v: 1 / v,
        "sq": lambda v: v ** 2, "cube": lambda v: v ** 3, "p0": lambda v: v ** 0, "p-1": lambda v: v ** -1,
        "p0.5": lambda v: v ** 0.5, "p-0.5": lambda v: v ** -0.5, "p1.5": lambda v: v ** 1.5,
        "2**v": lambda v: 2 ** v, "0**v": lambda v: 0.0 ** v, "(-2)**v": lambda v: (-2.0) ** v,
        "clamp(-1,1)": lambda v: v.clamp(-1.0, 1.0), "clamp_min(0.5)": lambda v: v.clamp(min=0.5),
        "clamp_max(-1)": lambda v: v.clamp(max=-1.0), "v/0": lambda v: v / 0.0, "v*0": lambda v: v * 0.0,
        "v*inf": lambda v: v * float("inf"), "v+inf": lambda v: v + float("inf"),
        "v*v": lambda v: v * v, "v/v": lambda v: v / v, "v**v": lambda v: v ** v, "v-v": lambda v: v - v,
    }
    for name, f in unary.items():
        for x in POINTS:
            w = B.value(x, requires_grad=True)
            y = rec(f"{name}({x!r})", lambda: f(w))
            if y is not None:
                rec(f"{name}({x!r}) value", y)
                rec(f"{name}({x!r}) grad", lambda: B.grad(y, w))
    for x in [0.0, 1.0, -1.0, 0.5]:
        for z in [0.0, 1.0, -1.0, 0.5]:
            a = B.value(x, requires_grad=True)
            b = B.value(z, requires_grad=True)
            for name, f in {"maximum": B.maximum, "minimum": B.minimum, "pow": B.pow, "div": B.div}.items():
                y = f(a, b)
                rec(f"{name}({x}, {z})", (y, B.grad(y, [a, b])))
