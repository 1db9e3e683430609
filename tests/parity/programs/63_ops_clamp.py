"""clamp with number bounds (ClampBackward1) and Value bounds (ClampBackward0): values and gradients."""

NAN, INF = float("nan"), float("inf")


def run(B, rec):
    for x in (-2.5, 0.0, -0.0, 0.5, 1.0, 3.0, NAN, INF):
        for lo, hi in ((0.0, 1.0), (None, 1.0), (0.0, None), (1.0, 0.0), (NAN, 1.0), (0.0, NAN), (1, 3)):
            w = B.value(x, requires_grad=True)
            y = w.clamp(lo, hi) if hi is not None else w.clamp(min=lo)
            key = f"clamp({x}, {lo}, {hi})"
            rec(key, y)
            rec(f"{key} grad_fn", y.grad_fn)
            (y * 3).backward()
            rec(f"{key} w.grad", w.grad)
    for x, lo, hi in ((2.0, 3.0, 1.0), (0.0, 3.0, 1.0), (1.0, 1.0, 1.0), (0.5, 0.0, 1.0), (-1.0, 0.0, 1.0), (5.0, 0.0, 1.0)):
        w, a, b = (B.value(v, requires_grad=True) for v in (x, lo, hi))
        y = B.clamp(w, a, b)
        key = f"clamp({x}, Value {lo}, Value {hi})"
        rec(key, y)
        rec(f"{key} next", y.grad_fn.next_functions)
        y.backward()
        rec(f"{key} grads", (w.grad, a.grad, b.grad))
    w, a = B.value(0.25, requires_grad=True), B.value(0.5, requires_grad=True)
    y = w.clamp(min=a)
    rec("min only: next", y.grad_fn.next_functions)
    y.backward()
    rec("min only: grads", (w.grad, a.grad))
    w, b = B.value(0.75, requires_grad=True), B.value(0.5, requires_grad=True)
    y = w.clamp(max=b)
    rec("max only: next", y.grad_fn.next_functions)
    y.backward()
    rec("max only: grads", (w.grad, b.grad))
    w = B.value(0.25, requires_grad=True)
    y = w.clamp(min=B.value(0.5), max=2.0)
    rec("Value min, number max: node", y.grad_fn)
    rec("Value min, number max: next", y.grad_fn.next_functions)
    rec("no bound", lambda: w.clamp())
    rec("None bounds", lambda: w.clamp(min=None, max=None))
    rec("clip", w.clip(0.5, 1.0))
    rec("clamp_min", w.clamp_min(0.5))
    rec("clamp_max", w.clamp_max(0.1))
    rec("clamp_min node", w.clamp_min(0.5).grad_fn)
    rec("clamp_max node", w.clamp_max(0.1).grad_fn)
    for x in (0.1, 0.5, 0.9):
        w = B.value(x, requires_grad=True)
        (w.clamp_min(0.5) * w.clamp_max(0.5)).backward()
        rec(f"clamp_min * clamp_max at {x}", w.grad)
    c = B.value(2.0)
    with B.no_grad():
        rec("under no_grad", B.value(3.0, requires_grad=True).clamp(0, 1).requires_grad)
    rec("on a constant", c.clamp(0, 1).requires_grad)
