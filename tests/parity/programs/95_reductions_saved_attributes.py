"""sum() and mean() of a 0-dim Value: their nodes and gradients; sum saves nothing, so an in-place change
of its input after the forward does not stop its backward."""


def run(B, rec):
    for x0 in (0.75, -2.0):
        w = B.value(x0, requires_grad=True)
        for label, f in {"sum()": lambda: w.sum(), "mean()": lambda: w.mean()}.items():
            y = f()
            rec(f"{label} at {x0}: node", y.grad_fn)
            y.backward()
            rec(f"{label} at {x0}: w.grad", w.grad)
            w.grad = None
    w = B.value(1.5, requires_grad=True)
    a = w * 1
    s = a.sum()
    a.add_(1)
    rec("sum saved nothing: in-place after", lambda: s.backward())
