"""IEEE arithmetic as torch: inf, -inf and nan instead of Python exceptions."""


def probe(B, rec, label, f, *points):
    """Record value and gradient of f at each point (one leaf per argument)."""
    leaves = [B.value(p, requires_grad=True) for p in points]
    y = f(*leaves)
    at = ", ".join(repr(p) for p in points)
    rec(f"{label} at ({at})", y)
    rec(f"{label} at ({at}): backward", lambda: y.backward())
    for i, leaf in enumerate(leaves):
        rec(f"{label} at ({at}): grad[{i}]", leaf.grad)


def run(B, rec):
    probe(B, rec, "1/x", lambda x: 1 / x, 0.0)
    probe(B, rec, "1/x", lambda x: 1 / x, -0.0)
    probe(B, rec, "x/y", lambda x, y: x / y, 1.5, 0.0)
    probe(B, rec, "x/y", lambda x, y: x / y, 0.0, 0.0)
    probe(B, rec, "x/y", lambda x, y: x / y, -2.5, -0.0)
    probe(B, rec, "log", lambda x: x.log(), 0.0)
    probe(B, rec, "log", lambda x: x.log(), -1.5)
    probe(B, rec, "log", lambda x: x.log(), float("inf"))
    probe(B, rec, "exp", lambda x: x.exp(), 1000.0)
    probe(B, rec, "exp", lambda x: x.exp(), -1000.0)
    probe(B, rec, "exp", lambda x: x.exp(), float("-inf"))
    probe(B, rec, "sqrt", lambda x: x.sqrt(), 0.0)
    probe(B, rec, "sqrt", lambda x: x.sqrt(), -2.25)
    probe(B, rec, "x**0", lambda x: x ** 0, 0.0)
    probe(B, rec, "x**0.5", lambda x: x ** 0.5, 0.0)
    probe(B, rec, "x**-1", lambda x: x ** -1, 0.0)
    probe(B, rec, "x**-2", lambda x: x ** -2, -0.0)
    probe(B, rec, "x**y", lambda x, y: x ** y, 0.0, 0.0)
    probe(B, rec, "x**y", lambda x, y: x ** y, 0.0, 2.5)
    probe(B, rec, "0.0**x", lambda x: 0.0 ** x, 2.5)
    probe(B, rec, "0.0**x", lambda x: 0.0 ** x, 0.0)
    probe(B, rec, "x*y", lambda x, y: x * y, 0.0, float("inf"))
    probe(B, rec, "x-x", lambda x: x - x, float("inf"))
    probe(B, rec, "x+y", lambda x, y: x + y, float("inf"), float("-inf"))
    probe(B, rec, "tanh", lambda x: x.tanh(), 25.0)
    probe(B, rec, "tanh", lambda x: x.tanh(), float("-inf"))
    probe(B, rec, "sigmoid", lambda x: x.sigmoid(), 800.0)
    probe(B, rec, "sigmoid", lambda x: x.sigmoid(), -800.0)
    probe(B, rec, "sin", lambda x: x.sin(), float("inf"))
    probe(B, rec, "cos", lambda x: x.cos(), float("nan"))
    probe(B, rec, "x*x", lambda x: x * x, 1e200)
    probe(B, rec, "exp(x)/exp(x)", lambda x: x.exp() / x.exp(), 800.0)
    rec("div by a Python zero", lambda: B.value(1.5, requires_grad=True) / 0)
    rec("value / 0", B.value(1.5) / 0)
    rec("-value / 0.0", -B.value(1.5) / 0.0)
    rec("0 ** -1 with a Python base", 0 ** B.value(-1.0))
    rec("value ** 0.5 of a negative", B.value(-4.0) ** 0.5)
