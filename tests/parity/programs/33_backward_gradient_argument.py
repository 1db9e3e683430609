"""backward(gradient) scales the chain rule's seed; grad_outputs does the same for grad()."""


def run(B, rec):
    w = B.value(1.25, requires_grad=True)
    y = w * w
    rec("y.backward(gradient=2.5)", lambda: y.backward(gradient=B.value(2.5)))
    rec("w.grad", w.grad)

    w.grad = None
    y = w * w
    rec("y.backward(value) positionally", lambda: y.backward(B.value(-0.5)))
    rec("w.grad (negative seed)", w.grad)

    w.grad = None
    y = w.exp()
    g = B.value(3.0, requires_grad=True)
    rec("gradient that requires grad", lambda: y.backward(g))
    rec("w.grad (requires-grad seed)", w.grad)
    rec("w.grad.requires_grad", w.grad.requires_grad)
    rec("g.grad untouched", g.grad)

    w.grad = None
    y = w.exp()
    rec("gradient=0", lambda: y.backward(B.value(0.0)))
    rec("w.grad with zero seed", w.grad)

    x = B.value(-0.75, requires_grad=True)
    rec("grad_outputs", B.grad(w * x, [w, x], grad_outputs=B.value(4.0)))
    rec("grad_outputs as a list", B.grad(w * x, [w], grad_outputs=[B.value(-2.0)]))
    rec("backward(values, grad_values)", lambda: B.backward([w * x], [B.value(10.0)]))
    rec("w.grad after module backward", w.grad)
    rec("x.grad after module backward", x.grad)
