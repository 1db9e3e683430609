"""``Tensor.backward`` and ``torch.autograd.grad`` as their docstrings describe the arguments, on
values of our own, in combinations not tried elsewhere: a gradient given as a number or a value
that requires grad, ``retain_graph=False`` spelled out, ``create_graph`` keeping the graph,
``grad`` of a leaf with respect to itself, several outputs with ``grad_outputs`` holding None,
inputs that need no gradient or were never used, ``inputs=`` empty or naming a value twice."""


def run(B, rec):
    A = B.autograd

    w = B.value(0.6, requires_grad=True)
    y = w * w
    rec("backward(2.0)", lambda: y.backward(2.0))
    rec("w.grad after backward(2.0)", w.grad)
    w.grad = None
    y = w * w
    k = B.value(3.0, requires_grad=True)
    y.backward(k)
    rec("backward(gradient that requires grad)", (w.grad, k.grad))
    w.grad = None
    y = w.exp()
    y.backward(retain_graph=False)
    rec("retain_graph=False, then again", lambda: y.backward())
    y = w.exp()
    y.backward(create_graph=True)
    rec("create_graph=True: w.grad", (w.grad, w.grad.requires_grad, w.grad.grad_fn))
    rec("create_graph keeps the graph: again", lambda: y.backward())
    rec("w.grad after the second", w.grad)
    w.grad = None

    rec("grad(w, w)", B.grad(w, w))
    rec("w.backward()", lambda: w.backward())
    rec("w.grad after w.backward()", w.grad)
    w.grad = None
    c = B.value(1.0)
    rec("grad w.r.t. a value without grad", lambda: B.grad(w * c, [w, c]))
    rec("grad of a value without grad", lambda: B.grad(c * 2, [w]))
    u = B.value(4.0, requires_grad=True)
    rec("grad, input unused", lambda: B.grad(w * 2, [w, u]))
    rec("grad, allow_unused=False, materialize_grads", lambda: B.grad(w * 2, [w, u], allow_unused=False,
                                                                        materialize_grads=True))
    rec("grad, materialize_grads alone", B.grad(w * 2, [w, u], materialize_grads=True))
    y1, y2 = w * 2, w.sin()
    rec("grad of two outputs, grad_outputs with None", B.grad([y1, y2], [w], grad_outputs=[None, B.value(2.0)]))
    rec("grad of two outputs, tuple", B.grad((w * 2, w * 3), (w,)))
    rec("grad_outputs of the wrong length", lambda: B.grad([w * 2, w * 3], [w], grad_outputs=[B.value(1.0)]))
    rec("grad with only_inputs", B.grad(w * 5, w, only_inputs=True))
    y = w * u
    rec("backward(inputs=[])", lambda: y.backward(inputs=[]))
    rec("backward(inputs=[w, w])", lambda: y.backward(inputs=[w, w], retain_graph=True))
    rec("inputs=[w, w]: grads", (w.grad, u.grad))
    rec("backward(inputs=w)", lambda: y.backward(inputs=w, retain_graph=True))
    rec("inputs=w: grads", (w.grad, u.grad))
    rec("backward(inputs=[c])", lambda: y.backward(inputs=[c]))
    w.grad = u.grad = None
    rec("A.backward(y, inputs=(u,))", lambda: A.backward(w * u, inputs=(u,)))
    rec("grads", (w.grad, u.grad))
    rec("A.backward of a list with a value without grad", lambda: A.backward([w * 2, c * 2]))
    rec("grads after", (w.grad, u.grad))
