"""Reductions of a 0-dim value: sum, mean, prod, nansum, amax, amin, max, min, logsumexp, cumsum."""

NAN, INF = float("nan"), float("inf")


def run(B, rec):
    calls = (("sum()", lambda w: w.sum()), ("sum(0)", lambda w: w.sum(0)), ("sum(dim=None)", lambda w: w.sum(dim=None)),
             ("sum(-1, True)", lambda w: w.sum(-1, True)), ("sum(dim=(0,))", lambda w: w.sum(dim=(0,))),
             ("mean()", lambda w: w.mean()), ("mean(0)", lambda w: w.mean(0)), ("prod()", lambda w: w.prod()),
             ("prod(0)", lambda w: w.prod(0)), ("nansum()", lambda w: w.nansum()), ("amax()", lambda w: w.amax()),
             ("amin(0)", lambda w: w.amin(0)), ("max()", lambda w: w.max()), ("min()", lambda w: w.min()),
             ("logsumexp(0)", lambda w: w.logsumexp(0)), ("cumsum(0)", lambda w: w.cumsum(0)))
    for x in (2.0, -1.5, 0.0, -0.0, NAN, INF, -INF):
        for name, fn in calls:
            w = B.value(x, requires_grad=True)
            y = fn(w)
            rec(f"{x}.{name}", y)
            rec(f"{x}.{name} node", y.grad_fn)
            y.backward(B.value(3.0))
            rec(f"{x}.{name} grad", w.grad)
    w = B.value(2.0, requires_grad=True)
    rec("sum(1)", lambda: w.sum(1))
    rec("mean(2)", lambda: w.mean(2))
    rec("prod(-2)", lambda: w.prod(-2))
    rec("module sum of one value", B.sum([w]))
    rec("sum of a constant", B.value(3.0).sum().requires_grad)
    y = (w * w).sum()
    y.backward()
    rec("sum of a product: second backward", lambda: y.backward())
    z = (w.exp()).mean() * w.prod()
    z.backward()
    rec("mean * prod grad", w.grad)
