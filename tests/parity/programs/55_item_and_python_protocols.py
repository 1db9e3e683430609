"""item(), float() on constants, identity hashing and comparisons outside the graph."""


def run(B, rec):
    w = B.value(2.5, requires_grad=True)
    rec("w.item()", w.item())
    rec("type(w.item())", type(w.item()).__name__)
    c = B.value(-0.75)
    rec("float(c)", float(c))
    rec("type(float(c))", type(float(c)).__name__)
    rec("B.value(3).item() is float", type(B.value(3).item()).__name__)
    rec("w.requires_grad after item()", w.requires_grad)
    y = w * 3
    rec("y.item()", y.item())
    rec("y.item() leaves the graph alone", y.grad_fn)

    x = B.value(2.5, requires_grad=True)
    rec("len({w, x, w})", len({w, x, w}))
    d = {w: "w", x: "x"}
    rec("dict lookup by identity", d[x])
    rec("w < x", bool(w < x))
    rec("w <= x", bool(w <= x))
    rec("y > w", bool(y > w))
    rec("y >= 7.5", bool(y >= 7.5))
    rec("w < 3", bool(w < 3))
    rec("comparison requires_grad", getattr(w < x, "requires_grad", False))
    y.backward()
    rec("w.grad", w.grad)
    rec("w.grad.item()", w.grad.item())
