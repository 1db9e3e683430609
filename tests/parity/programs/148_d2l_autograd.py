"""d2l's automatic differentiation section on one-element values of our own: y = 2 x·x and its gradient
4x, resetting with ``x.grad.zero_()``, ``x.sum()``, a non-scalar's backward with a gradient of ones,
detaching (``u = y.detach(); z = u * x``: dz/dx is u), and Python control flow (``f(a)`` doubles
while ``b.norm() < 1000``, then branches on the sign): d(a)/a is the gradient."""


def run(B, rec):
    x = B.value(1.5)
    x.requires_grad_(True)
    rec("x.grad before", x.grad)
    y = 2 * (x * x)
    rec("y", y)
    y.backward()
    rec("x.grad", x.grad)
    rec("x.grad == 4 * x", bool(x.grad == 4 * x))
    x.grad.zero_()
    y = x.sum()
    y.backward()
    rec("x.sum(): x.grad", x.grad)
    x.grad.zero_()
    y = x * x
    y.backward(gradient=B.value(1.0))
    rec("y.backward(gradient=ones): x.grad", x.grad)
    x.grad.zero_()
    y = x * x
    u = y.detach()
    z = u * x
    z.sum().backward()
    rec("x.grad == u", bool(x.grad == u))
    rec("u", (u, u.requires_grad, u.grad_fn))
    x.grad.zero_()
    y.sum().backward()
    rec("x.grad == 2 * x", bool(x.grad == 2 * x))

    def f(a):
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        if b.sum() > 0:
            c = b
        else:
            c = 100 * b
        return c

    for start in (0.3, -1.7, 700.0):
        a = B.value(start, requires_grad=True)
        d = f(a)
        d.backward()
        rec(f"f({start})", d)
        rec(f"f({start}): a.grad", a.grad)
        rec(f"f({start}): a.grad == d / a", bool(a.grad == d / a))
    rec("norm of a value", B.value(-2.5).norm())
