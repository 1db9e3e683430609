"""retain_grad stores the hook-modified gradient, whichever was registered first."""


def run(B, rec):
    for order in ("retain first", "hook first"):
        w = B.value(1.5, requires_grad=True)
        x = B.value(-0.75, requires_grad=True)
        a = x + w
        y = a * (w + 1)
        if order == "retain first":
            a.retain_grad()
            a.register_hook(lambda g: g * 2)
        else:
            a.register_hook(lambda g: g * 2)
            a.retain_grad()
        y.backward()
        rec(f"{order}: a.grad", a.grad)
        rec(f"{order}: w.grad", w.grad)
        rec(f"{order}: x.grad", x.grad)

    w = B.value(1.5, requires_grad=True)
    w.register_hook(lambda g: g * 2)
    (w * 3).backward()
    rec("leaf doubling hook: w.grad", w.grad)
