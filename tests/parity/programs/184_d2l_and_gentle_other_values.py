"""d2l's autograd section and "A Gentle Introduction to torch.autograd" on values of our own: Q = 3a^3 - b^2
with an explicit gradient, 9a^2 == a.grad, detach to cut a path, a Python control flow whose branch
depends on the value, gradient reset, frozen inputs ("Exclusion from the DAG")."""


def run(B, rec):
    a = B.value(-1.7, requires_grad=True)
    b = B.value(0.45, requires_grad=True)
    Q = 3 * a ** 3 - b ** 2
    rec("Q", Q)
    rec("Q.grad_fn", Q.grad_fn)
    Q.backward(gradient=B.value(1.0))
    rec("a.grad == 9a^2", a.grad == 9 * a ** 2)
    rec("b.grad == -2b", b.grad == -2 * b)
    rec("grads", (a.grad, b.grad))
    rec("Q.backward(gradient=2.0) again", lambda: Q.backward(gradient=B.value(2.0)))

    x = B.value(0.0, requires_grad=True)
    y = B.value(2.0)
    z = B.value(-3.0, requires_grad=True)
    s = x + y
    rec("does s require grad", s.requires_grad)
    t = y * y
    rec("does t require grad", t.requires_grad)
    u = z * s
    rec("u", (u, u.requires_grad))

    x = B.value(1.3, requires_grad=True)
    y = x * x
    u = y.detach()
    zz = u * x
    zz.sum().backward()
    rec("x.grad == u", x.grad == u)
    x.grad.zero_()
    y.sum().backward()
    rec("x.grad == 2x", x.grad == 2 * x)

    def f(v):
        w = v * 2
        while w.norm() < 1000:
            w = w * 2
        if w.sum() > 0:
            c = w
        else:
            c = 100 * w
        return c

    for start in (0.37, -0.0123, 5.0):
        v = B.value(start, requires_grad=True)
        d = f(v)
        d.backward()
        rec(f"f({start})", (d, v.grad, v.grad == d / v))
    x = B.value(0.8, requires_grad=True)
    x.grad = None
    (x * x * x).backward()
    rec("after reset by None", x.grad)
    (x * x * x).backward()
    rec("accumulated", x.grad)
    x.grad.zero_()
    rec("zeroed", x.grad)
