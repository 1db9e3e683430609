"""Retained grads accumulate; retain_grad after backward; retain_grad on a non-grad value."""


def run(B, rec):
    w = B.value(-1.25, requires_grad=True)
    x = B.value(0.5, requires_grad=True)
    a = w * x
    a.retain_grad()
    y = a * a
    y.backward(retain_graph=True)
    rec("a.grad after 1st", a.grad)
    y.backward()
    rec("a.grad after 2nd", a.grad)
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)
    t = B.value(3.5)
    rec("t.retain_grad() (no grad)", lambda: t.retain_grad())
    rec("t.retains_grad", t.retains_grad)
    k = t * 2
    rec("(const-only).retain_grad()", lambda: k.retain_grad())
    c = w + 0.25
    z = c.exp()
    z.backward()
    rec("c.retain_grad() after backward", lambda: c.retain_grad())
    rec("c.grad right after retain_grad", c.grad)
    z2 = c.exp()
    z2.backward()
    rec("c.grad after a later backward", c.grad)
    rec("w.grad at end", w.grad)
