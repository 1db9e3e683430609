"""Every pow form: value ** number, value ** value, number ** value, incl. negative bases."""


def run(B, rec):
    for base in (2.5, -1.5, 0.5):
        for p in (0, 1, 2, 3, 0.5, -1, -2.5, 1.5):
            w = B.value(base, requires_grad=True)
            y = w ** p
            y.backward()
            rec(f"{base!r} ** {p!r}", y)
            rec(f"d/dw {base!r} ** {p!r}", w.grad)
    for base, expo in ((2.5, 1.25), (-1.5, 2.0), (-1.5, 0.5), (0.5, -3.0), (1.0, 7.5), (-2.0, -1.0)):
        w = B.value(base, requires_grad=True)
        x = B.value(expo, requires_grad=True)
        y = w ** x
        y.backward()
        rec(f"{base!r} ** {expo!r} (both values)", y)
        rec(f"d/dbase {base!r} ** {expo!r}", w.grad)
        rec(f"d/dexp {base!r} ** {expo!r}", x.grad)
    for base in (2.5, -1.5, 0.5, 1.0):
        for expo in (1.25, 2.0, -0.5):
            x = B.value(expo, requires_grad=True)
            y = base ** x
            y.backward()
            rec(f"{base!r} ** value({expo!r})", y)
            rec(f"d/dx {base!r} ** value({expo!r})", x.grad)
    w = B.value(1.75, requires_grad=True)
    rec("pow(w, 2.0)", B.pow(w, 2.0))
    rec("pow(2.0, w)", B.pow(2.0, w))
    rec("pow(w, w)", B.pow(w, w))
