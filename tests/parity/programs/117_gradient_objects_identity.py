"""Gradient objects a student holds on to: ``.grad`` across passes (the same object, its version), after
``zero_()``, after ``grad = None``, a user-assigned ``.grad`` accumulated into, grad() results and their
versions and identity, a leaf reached along two paths, detach/clone of a grad, backward with inputs=."""

from parity.helpers import attempt


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    (w * w).backward()
    g1 = w.grad
    rec("first", (g1, g1._version, g1.requires_grad, g1.is_leaf))
    (w * 3).backward()
    rec("second: same object", (w.grad is g1, g1, g1._version))
    w.grad.zero_()
    rec("zero_", (w.grad is g1, g1, g1._version))
    (w * 2).backward()
    rec("after zero_", (w.grad is g1, g1, g1._version))
    w.grad = None
    (w * 2).backward()
    rec("after None", (w.grad is g1, w.grad, w.grad._version))

    mine = B.value(10.0)
    x = B.value(2.0, requires_grad=True)
    x.grad = mine
    (x * 4).backward()
    rec("user grad accumulated", (x.grad is mine, mine, mine._version))
    d = x.grad.detach()
    (x * 1).backward()
    rec("detached grad sees it", (d, d._version, x.grad._version))
    cl = x.grad.clone()
    (x * 1).backward()
    rec("clone does not", (cl, cl._version))

    a = B.value(0.5, requires_grad=True)
    y = a * 2 + a * 3
    y.backward()
    rec("two paths", (a.grad, a.grad._version))
    b = B.value(0.5, requires_grad=True)
    z = b.exp() + b.sin() + b * b
    z.backward()
    rec("three paths", (b.grad, b.grad._version))
    c = B.value(0.5, requires_grad=True)
    (c + c).backward()
    rec("c + c", (c.grad, c.grad._version))
    e = B.value(0.5, requires_grad=True)
    (e * 1 + e * 1 + e * 1 + e * 1).backward()
    rec("four paths", (e.grad, e.grad._version))

    p = B.value(1.0, requires_grad=True)
    q = p * 3
    r1 = B.grad(q * q, [p, q], retain_graph=True)
    rec("grad pair", (r1, r1[0]._version, r1[1]._version, r1[0].requires_grad))
    r2 = B.grad(q * q, (q, q), retain_graph=True)
    rec("grad (q, q) same object", (r2[0] is r2[1], r2[0]._version))
    r3 = B.grad(q + q, q, retain_graph=True)
    rec("grad of q + q", (r3, r3[0]._version))
    r4 = B.grad(p + p + p, p)
    rec("grad of p + p + p", (r4, r4[0]._version))

    s = B.value(2.0, requires_grad=True)
    t = B.value(3.0, requires_grad=True)
    out = s * t
    out.backward(inputs=[t])
    rec("inputs=[t]", (s.grad, t.grad, t.grad._version))
    k = B.value(1.0, requires_grad=True)
    m = k * 2
    (m * m).backward(inputs=[m])
    rec("inputs=[non-leaf]", (attempt(lambda: m.grad), k.grad, m.retains_grad))
    n = B.value(4.0, requires_grad=True)
    (n * 2).sum().backward()
    (n * 2).mean().backward()
    rec("sum then mean", (n.grad, n.grad._version))
