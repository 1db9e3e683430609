"""A detached operand is a constant: no gradient flows through it."""


def run(B, rec):
    w = B.value(2.5, requires_grad=True)
    y = w * w.detach()
    rec("y", y)
    rec("y.grad_fn", y.grad_fn)
    rec("y.grad_fn.next_functions[1]", y.grad_fn.next_functions[1][0])
    y.backward()
    rec("w.grad (not 2w)", w.grad)

    w = B.value(2.5, requires_grad=True)
    y = (w * 2).detach() * w + w
    y.backward()
    rec("(2w).detach()*w + w: w.grad", w.grad)

    w = B.value(2.5, requires_grad=True)
    d = (w * 3).detach()
    rec("backward of a detached result", lambda: d.backward())
    rec("grad() of a detached result", lambda: B.grad(d, [w]))

    w = B.value(2.5, requires_grad=True)
    x = B.value(-0.5, requires_grad=True)
    y = w.detach() * x + w * x.detach()
    y.backward()
    rec("mixed: w.grad", w.grad)
    rec("mixed: x.grad", x.grad)
