"""A hook may return a replacement gradient; chained hooks see each other's result."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    a.register_hook(lambda g: g * 2)
    y.backward()
    rec("doubling hook on a: x.grad", x.grad)
    rec("doubling hook on a: w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = x + w
    y = a * (w + 1)
    seen = []
    a.register_hook(lambda g: (seen.append(("h1", B.num(g))), g * 2)[1])
    a.register_hook(lambda g: (seen.append(("h2", B.num(g))), g + 100)[1])
    a.register_hook(lambda g: seen.append(("h3", B.num(g))))
    y.backward()
    rec("chain order and inputs", seen)
    rec("chained: x.grad", x.grad)
    rec("chained: w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    a = w * 3
    a.register_hook(lambda g: B.value(0.0))
    a.exp().backward()
    rec("hook returning a fresh zero value: w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    a = w.sin()
    a.register_hook(lambda g: g * -1)
    rec("grad() honours hooks", B.grad(a * a, w))
