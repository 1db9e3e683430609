"""The "Autograd mechanics" notes on gradients at points where a function is not differentiable, on
values of our own: relu, abs, clamp and maximum/minimum at their kinks (sub-gradients), sqrt and
fractional powers at 0 (the limit, inf), log and division at 0, powers of 0, and nan and inf inputs
(the gradient the notes call arbitrary, as torch gives it)."""

import math


def run(B, rec):
    def g(f, x):
        w = B.value(x, requires_grad=True)
        y = f(w)
        y.backward()
        return (y, w.grad)

    cases = {
        "relu": lambda w: w.relu(),
        "abs": lambda w: w.abs(),
        "sqrt": lambda w: w.sqrt(),
        "** 0.5": lambda w: w ** 0.5,
        "** 1.5": lambda w: w ** 1.5,
        "** 2": lambda w: w ** 2,
        "** 0": lambda w: w ** 0,
        "** -1": lambda w: w ** -1,
        "** 0.0": lambda w: w ** 0.0,
        "log": lambda w: w.log(),
        "1 / w": lambda w: 1 / w,
        "w / w": lambda w: w / w,
        "0 ** w": lambda w: 0 ** w,
        "0.0 ** w": lambda w: 0.0 ** w,
        "w ** w": lambda w: w ** w,
        "clamp(0, 1)": lambda w: w.clamp(0, 1),
        "clamp(min=0)": lambda w: w.clamp(min=0),
        "clamp(max=0)": lambda w: w.clamp(max=0),
        "sigmoid": lambda w: w.sigmoid(),
        "tanh": lambda w: w.tanh(),
        "exp": lambda w: w.exp(),
        "sin": lambda w: w.sin(),
        "square": lambda w: w.square(),
        "log1p": lambda w: w.log1p(),
        "tan": lambda w: w.tan(),
        "w * w": lambda w: w * w,
        "relu of -w": lambda w: (-w).relu(),
    }
    for x in (0.0, -0.0, -1.0, 1.0, math.inf, -math.inf, math.nan, 800.0, -800.0):
        for name, f in cases.items():
            rec(f"{name} at {x}", g(f, x))
    # maximum/minimum with ties share the gradient; where picks the branch
    for a, b in ((1.0, 1.0), (0.0, -0.0), (2.0, 1.0), (math.nan, 1.0)):
        w = B.value(a, requires_grad=True)
        x = B.value(b, requires_grad=True)
        B.maximum(w, x).backward()
        rec(f"maximum({a}, {b}): grads", (w.grad, x.grad))
        w.grad = x.grad = None
        B.minimum(w, x).backward()
        rec(f"minimum({a}, {b}): grads", (w.grad, x.grad))
    w = B.value(0.0, requires_grad=True)
    y = B.where(w > 0, w, w * 0.5)
    y.backward()
    rec("where(w > 0, w, w * 0.5) at 0", (y, w.grad))
