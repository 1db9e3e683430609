"""Several outputs at once: module backward, grad_values, sum, grad over lists."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    y1 = w * x
    y2 = w.exp() + x
    rec("backward([y1, y2])", lambda: B.backward([y1, y2]))
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)

    w.grad = None
    x.grad = None
    y1 = w * x
    y2 = w.exp() + x
    rec("backward with grad_values", lambda: B.backward([y1, y2], [B.value(2.0), B.value(-10.0)]))
    rec("grad_values: w.grad", w.grad)
    rec("grad_values: x.grad", x.grad)

    w.grad = None
    x.grad = None
    s = B.sum([w * x, w.exp() + x, w])
    rec("sum", s)
    s.backward()
    rec("via sum: w.grad", w.grad)
    rec("via sum: x.grad", x.grad)

    w.grad = None
    x.grad = None
    (w * x).backward()
    (w.exp() + x).backward()
    rec("separately: w.grad", w.grad)
    rec("separately: x.grad", x.grad)

    rec("grad([w*x, w*w], [w, x])", B.grad([w * x, w * w], [w, x]))
    rec("grad with grad_outputs list",
        B.grad([w * x, w * w], [w, x], grad_outputs=[B.value(1.0), B.value(0.5)]))

    a = w * x
    outs = [a * 2, a.sin(), a + 1]
    rec("shared node, three roots", lambda: B.backward(outs))
    rec("w.grad at end", w.grad)
    rec("backward(single value, not list)", lambda: B.backward(w * w))
    rec("w.grad final", w.grad)
    s = B.sum([w, x])
    s.backward()
    rec("sum saves nothing: again", lambda: s.backward())
