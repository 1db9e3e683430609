"""A second backward through freed saved values fails with PyTorch's message; grads stay."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    y = (x + w) * (w + 1)
    rec("1st y.backward()", lambda: y.backward())
    rec("w.grad after 1st", w.grad)
    rec("x.grad after 1st", x.grad)
    rec("2nd y.backward()", lambda: y.backward())
    rec("w.grad after failed 2nd", w.grad)
    rec("x.grad after failed 2nd", x.grad)
    rec("y still readable", y)
    rec("y.grad_fn still there", y.grad_fn)
    rec("grad(y, w) after freeing", lambda: B.grad(y, w))
    y2 = (x + w) * (w + 1)
    rec("grad(y2, [w]) frees too", B.grad(y2, [w]))
    rec("then y2.backward()", lambda: y2.backward())
    rec("w.grad unchanged", w.grad)
    y3 = w.exp() * x
    rec("retain_graph=False frees", lambda: y3.backward(retain_graph=False))
    rec("y3 again", lambda: y3.backward())
