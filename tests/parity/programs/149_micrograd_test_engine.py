"""micrograd's test_engine.py (test_sanity_check, test_more_ops) on values of our own, written as the
tests write them: ``c += c + 1`` and ``d += d * 2 + ...`` change non-leaf values in place here, as they
do in the tests' torch half."""


def run(B, rec):
    for start in (-3.0, 2.5):
        x = B.value(start, requires_grad=True)
        z = 2 * x + 2 + x
        q = z.relu() + z * x
        h = (z * z).relu()
        y = h + q + q * x
        y.backward()
        rec(f"sanity check at {start}: y", y)
        rec(f"sanity check at {start}: x.grad", x.grad)

    for av, bv in ((-3.5, 1.5), (2.0, -0.75)):
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
        rec(f"more ops at ({av}, {bv}): nodes", (c.grad_fn, d.grad_fn, g.grad_fn))
        rec(f"more ops at ({av}, {bv}): versions", (c._version, d._version, g._version))
        g.backward()
        rec(f"more ops at ({av}, {bv}): g", g)
        rec(f"more ops at ({av}, {bv}): a.grad, b.grad", (a.grad, b.grad))
