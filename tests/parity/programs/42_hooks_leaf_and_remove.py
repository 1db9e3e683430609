"""Hooks on leaves see the incoming gradient; handle.remove() stops a hook."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    calls = []

    def tenfold(g):
        calls.append(B.num(g))
        return g * 10

    handle = w.register_hook(tenfold)
    y = (x + w) * (w + 1)
    y.backward()
    rec("leaf hook calls", calls)
    rec("w.grad (hook returned 10x)", w.grad)
    rec("x.grad", x.grad)
    handle.remove()
    y = (x + w) * (w + 1)
    y.backward()
    rec("hook calls after remove", len(calls))
    rec("w.grad after remove", w.grad)
    rec("remove() twice", lambda: handle.remove())

    v = B.value(0.5, requires_grad=True)
    saw = []
    v.register_hook(lambda g: saw.append(B.num(g)))
    (v * 3.0).backward()
    (v * 3.0).backward()
    rec("leaf hook sees the incoming grad, not .grad", saw)
    rec("v.grad", v.grad)

    u = B.value(0.5, requires_grad=True)
    u.register_hook(lambda g: g * 2)
    rec("leaf hook applies to grad()", B.grad(u * u, u))
    rec("u.grad untouched", u.grad)
