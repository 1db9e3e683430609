"""micrograd's test_engine.py again, at its own values (-4, and -4 with 2) and at values of our own
where its relus sit on their kinks (``z = 3x + 2 = 0``, ``b + a = 0``, ``b - a = 0``, zeros): the
value, the nodes, the in-place versions and the gradients torch gives there."""


def run(B, rec):
    for start in (-4.0, 0.0, -2.0 / 3.0, -0.0):
        x = B.value(start, requires_grad=True)
        z = 2 * x + 2 + x
        q = z.relu() + z * x
        h = (z * z).relu()
        y = h + q + q * x
        y.backward()
        rec(f"sanity check at {start!r}: y, x.grad", (y, x.grad))

    for av, bv in ((-4.0, 2.0), (1.0, 1.0), (-1.0, 1.0), (0.0, 0.0), (0.5, -0.5), (-0.0, 0.0)):
        a = B.value(av, requires_grad=True)
        b = B.value(bv, requires_grad=True)
        c = a + b
        d = a * b + b ** 3
        c += c + 1
        c += 1 + c + (-a)
        d += d * 2 + (b + a).relu()
        d += 3 * d + (b - a).relu()
        e = c - d
        f = e ** 2
        g = f / 2.0
        g += 10.0 / f
        rec(f"more ops at ({av!r}, {bv!r}): nodes, versions", (c.grad_fn, d.grad_fn, g.grad_fn, c._version,
                                                                 d._version, g._version))
        g.backward()
        rec(f"more ops at ({av!r}, {bv!r}): g, a.grad, b.grad", (g, a.grad, b.grad))
