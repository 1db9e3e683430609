"""sum() and mean() of a 0-dim value at ordinary numbers, zeros, nan and infinities: value, node, gradient."""

NAN, INF = float("nan"), float("inf")


def run(B, rec):
    calls = (("sum()", lambda w: w.sum()), ("mean()", lambda w: w.mean()))
    for x in (2.0, -1.5, 0.0, -0.0, NAN, INF, -INF):
        for name, fn in calls:
            w = B.value(x, requires_grad=True)
            y = fn(w)
            rec(f"{x}.{name}", y)
            rec(f"{x}.{name} node", y.grad_fn)
            y.backward(B.value(3.0))
            rec(f"{x}.{name} grad", w.grad)
    w = B.value(2.0, requires_grad=True)
    rec("module sum of one value", B.sum([w]))
    rec("sum of a constant", B.value(3.0).sum().requires_grad)
    y = (w * w).sum()
    y.backward()
    rec("sum of a product: second backward", lambda: y.backward())
