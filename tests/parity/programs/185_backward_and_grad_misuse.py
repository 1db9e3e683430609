"""backward() and autograd.grad() called the ways a student gets wrong, on values of our own: a number
as the gradient, a gradient that requires grad, grad() of a leaf list that misses one, grad() twice,
grad() with retain_graph then backward, inputs= naming a non-leaf or a value outside the graph,
create_graph without retain, grad of a value that does not require grad, positional misuse."""


def run(B, rec):
    x = B.value(0.9, requires_grad=True)
    k = B.value(-2.2, requires_grad=True)
    y = x * k + x.sin()
    rec("y.backward(2.0)", lambda: y.backward(2.0))
    rec("y.backward(gradient=[B.value(1.)])", lambda: y.backward([B.value(1.0)]))
    rec("grads", (x.grad, k.grad))
    y = x * k + x.sin()
    rec("y.backward(True)", lambda: y.backward(True))
    rec("y.backward(None, True)", lambda: y.backward(None, True))
    rec("grads after retained", (x.grad, k.grad))
    x.grad = k.grad = None
    g = B.value(0.5, requires_grad=True)
    rec("y.backward(gradient that requires grad)", lambda: y.backward(g, retain_graph=True))
    rec("grads then", (x.grad, k.grad, g.grad))
    rec("grad(y, x) after retain", B.grad(y, x, retain_graph=True))
    rec("grad(y, [x, k])", B.grad(y, [x, k]))
    rec("grad(y, x) once more", lambda: B.grad(y, x))
    z = (x * x).exp()
    rec("grad(z, x, grad_outputs=2.0)", lambda: B.grad(z, x, grad_outputs=2.0))
    rec("grad(z, x, grad_outputs=B.value(2.0))", B.grad(z, x, grad_outputs=B.value(2.0), retain_graph=True))
    rec("grad(z, x, create_graph=True)", B.grad(z, x, create_graph=True))
    rec("then z.backward()", lambda: z.backward())
    rec("x.grad", x.grad)
    w = x * 3
    v = w * w
    rec("backward(inputs=[w]) non-leaf", lambda: v.backward(inputs=[w], retain_graph=True))
    rec("w.grad after inputs=[w]", w.grad)
    rec("w.retains_grad", w.retains_grad)
    outside = B.value(1.0, requires_grad=True)
    rec("backward(inputs=[outside])", lambda: v.backward(inputs=[outside], retain_graph=True))
    rec("outside.grad", outside.grad)
    rec("backward(inputs=x) bare", lambda: v.backward(inputs=x, retain_graph=True))
    rec("x.grad after inputs=x", x.grad)
    rec("grad(x*2, x.detach())", lambda: B.grad(x * 2, x.detach()))
    rec("grad([], [])", lambda: B.grad([], []))
    rec("grad(x*2, [])", lambda: B.grad(x * 2, []))
    rec("backward([], [])", lambda: B.backward([], []))
    rec("grad(x*2, x, allow_unused='yes')", lambda: B.grad(x * 2, x, allow_unused="yes"))
    rec("backward(retain_graph='yes')", lambda: (x * 2).backward(retain_graph="yes"))
    rec("grad(outputs=x*2, inputs=x)", B.grad(outputs=x * 2, inputs=x))
    rec("grad(x*2)", lambda: B.grad(x * 2))
    rec("backward() with no args", lambda: B.backward())
