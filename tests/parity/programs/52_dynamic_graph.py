"""Python control flow decides the graph each time it runs."""


def run(B, rec):
    w = B.value(0.75, requires_grad=True)
    for i in range(4):
        if i % 2 == 0:
            y = (w * (i + 1.5)).tanh()
        else:
            y = (w - i).exp()
        rec(f"iter {i}: grad_fn", y.grad_fn)
        rec(f"iter {i}: input", y.grad_fn.next_functions[0][0])
        w.grad = None
        y.backward()
        rec(f"iter {i}: w.grad", w.grad)

    w = B.value(0.75, requires_grad=True)
    y = w * 1
    steps = 0
    while B.num(y) < 100:
        y = y * 2
        steps += 1
    y.backward()
    rec("data-dependent loop steps", steps)
    rec("data-dependent y", y)
    rec("data-dependent w.grad", w.grad)

    w = B.value(-0.75, requires_grad=True)
    y = w.relu() if B.num(w) > 0 else w.abs()
    rec("branch chosen grad_fn", y.grad_fn)
    y.backward()
    rec("branch w.grad", w.grad)

    def f(v, n):
        return v if n == 0 else f(v.sin() + v, n - 1)

    w = B.value(0.3, requires_grad=True)
    y = f(w, 3)
    y.backward()
    rec("recursive builder y", y)
    rec("recursive builder w.grad", w.grad)
