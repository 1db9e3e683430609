"""Diamonds: shared intermediates get the sum of their consumers' gradients."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    a = w * 2
    a.retain_grad()
    b = a + 1
    c = a * 3
    y = b * c
    y.backward()
    rec("y", y)
    rec("a.grad", a.grad)
    rec("w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w * x
    b = a + w
    c = a * b
    d = b.tanh() + c.sigmoid()
    f = d * a + c
    f.backward()
    rec("deep f", f)
    rec("deep w.grad", w.grad)
    rec("deep x.grad", x.grad)

    # micrograd's README expression, on values of our own choosing
    a = B.value(-3.5, requires_grad=True)
    b = B.value(1.75, requires_grad=True)
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    rec("micrograd expr g", g)
    rec("micrograd expr a.grad", a.grad)
    rec("micrograd expr b.grad", b.grad)
