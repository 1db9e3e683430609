"""Gradients reaching a leaf along several paths, across two backwards; grad() asked for one input twice."""


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
        rec(f"{name}: grad", w.grad)
    w = B.value(2.0, requires_grad=True)
    y = w * w
    rec("grad(y, [w, w]) values", B.grad(y, [w, w]))
    x = B.value(3.0, requires_grad=True)
    rec("grad(y, [w, x, w])", B.grad(w * x, [w, x, w]))
    a = w * 2
    rec("grad of a non-leaf twice", B.grad(a * a, [a, w, a]))
    w = B.value(2.0, requires_grad=True)
    w.grad = B.value(10.0)
    (w * 3).backward()
    rec("assigned grad value", w.grad)
