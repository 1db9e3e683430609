"""Gradient objects: identity of grad() results, .grad reused across backwards, in-place accumulation."""


def run(B, rec):
    cases = {
        "one path": lambda w: w * 3,
        "two paths": lambda w: w * 3 + w * 4,
        "three paths": lambda w: w * 3 + w * 4 + w.exp(),
        "w * w": lambda w: w * w,
        "diamond": lambda w: (w + 1) * (w - 1),
        "sum of uses": lambda w: B.sum([w, w * 2, w]),
    }
    for name, f in cases.items():
        w = B.value(1.5, requires_grad=True)
        f(w).backward()
        g = w.grad
        rec(f"{name}: grad", g)
        rec(f"{name}: version after the first backward", g._version)
        f(w).backward()
        rec(f"{name}: after second backward, same object", w.grad is g)
        before = w.grad._version
        w.grad.zero_()
        rec(f"{name}: zero_ adds one to the version", w.grad._version - before)
    w = B.value(2.0, requires_grad=True)
    y = w * w
    g1, g2 = B.grad(y, [w, w])
    rec("grad(y, [w, w]) values", (g1, g2))
    rec("grad(y, [w, w]) same object", g1 is g2)
    x = B.value(3.0, requires_grad=True)
    r = B.grad(w * x, [w, x, w])
    rec("grad(y, [w, x, w])", r)
    rec("grad(y, [w, x, w]) first is third", r[0] is r[2])
    a = w * 2
    r = B.grad(a * a, [a, w, a])
    rec("grad of a non-leaf twice", r)
    rec("non-leaf twice same object", r[0] is r[2])
    w = B.value(2.0, requires_grad=True)
    w.grad = B.value(10.0)
    before = w.grad
    (w * 3).backward()
    rec("assigned grad accumulated in place", w.grad is before)
    rec("assigned grad value", w.grad)
    w = B.value(2.0, requires_grad=True)
    a = w * 1
    a.retain_grad()
    (a * 3 + a * 4).backward()
    rec("retained grad version", a.grad._version)
