"""backward on something that needs no grad fails; on a leaf that does, it seeds 1."""


def run(B, rec):
    p = B.value(2.5)
    rec("plain.backward()", lambda: p.backward())
    k = p * 3 + 1
    rec("const-only.backward()", lambda: k.backward())
    w = B.value(1.5, requires_grad=True)
    d = w.detach()
    rec("detached.backward()", lambda: d.backward())
    with B.no_grad():
        n = w * 2
    rec("no_grad result.backward()", lambda: n.backward())
    rec("grad(const, w)", lambda: B.grad(k, [w]))
    rec("module backward([plain])", lambda: B.backward([p]))
    rec("module backward([w*2, plain])", lambda: B.backward([w * 2, p]))
    rec("w.grad after partial failure", w.grad)

    rec("w.backward() on a leaf", lambda: w.backward())
    rec("w.grad", w.grad)
    rec("w.backward(2.5)", lambda: w.backward(B.value(2.5)))
    rec("w.grad after +2.5", w.grad)
    rec("w.grad.is_leaf", w.grad.is_leaf)
    rec("w.grad.requires_grad", w.grad.requires_grad)

    v = B.value(-0.5, requires_grad=True)
    v.grad = B.value(10.0)
    rec("manual grad", v.grad)
    (v * 3).backward()
    rec("manual grad + backward", v.grad)
    v.grad = None
    (v * 3).backward()
    rec("after reset", v.grad)
