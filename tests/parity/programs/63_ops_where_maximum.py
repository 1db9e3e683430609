"""where, maximum and minimum: values, gradients, next_functions, ties and nan."""

NAN = float("nan")


def run(B, rec):
    for x, y in ((2.0, -3.0), (1.0, 1.0), (NAN, 1.0), (1.0, NAN), (-0.0, 0.0), (0.0, -0.0), (-5.0, 4.0)):
        a, b = B.value(x, requires_grad=True), B.value(y, requires_grad=True)
        m = B.maximum(a, b)
        rec(f"maximum({x}, {y})", m)
        m.backward(B.value(3.0))
        rec(f"maximum({x}, {y}) grads", (a.grad, b.grad))
        a, b = B.value(x, requires_grad=True), B.value(y, requires_grad=True)
        m = B.minimum(a, b)
        rec(f"minimum({x}, {y})", m)
        m.backward(B.value(3.0))
        rec(f"minimum({x}, {y}) grads", (a.grad, b.grad))
        a, b = B.value(x, requires_grad=True), B.value(y, requires_grad=True)
        rec(f"{x}.max({y})", a.max(b))
        rec(f"{x}.min({y}) node", a.min(b).grad_fn)
    a = B.value(2.0, requires_grad=True)
    m = B.maximum(a, B.value(3.0))
    rec("maximum with a constant: next", m.grad_fn.next_functions)
    rec("maximum with a number", lambda: B.maximum(a, 3.0))
    rec("minimum with a number first", lambda: B.minimum(3.0, a))
    for x in (2.0, -1.0, 0.0, NAN):
        w, v = B.value(x, requires_grad=True), B.value(7.0, requires_grad=True)
        y = B.where(w > 0, w * w, v * 2)
        rec(f"where({x} > 0)", y)
        rec(f"where({x} > 0) node", y.grad_fn)
        rec(f"where({x} > 0) next", y.grad_fn.next_functions)
        y.backward()
        rec(f"where({x} > 0) grads", (w.grad, v.grad))
    w = B.value(2.0, requires_grad=True)
    rec("where with a number", B.where(w < 1, w, 0.0))
    rec("where with a number: next", B.where(w < 1, w, 0.0).grad_fn.next_functions)
    rec("where number first: next", B.where(w < 1, 1.0, w).grad_fn.next_functions)
    y = B.where(w < 1, 5.0, w * 3)
    y.backward()
    rec("where number first: grad", w.grad)
    rec("where on a float condition", lambda: B.where(w, w, w))
    rec("where on a python bool", lambda: B.where(True, w, w))
    with B.no_grad():
        rec("where under no_grad", B.where(w > 0, w, w).requires_grad)
