"""backward(create_graph=True) warns and leaves a differentiable .grad."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    y = w ** 3
    rec("y.backward(create_graph=True)", lambda: y.backward(create_graph=True))
    rec("w.grad", w.grad)
    rec("w.grad.requires_grad", w.grad.requires_grad)
    g = w.grad
    w.grad = None
    g.backward()
    rec("w.grad after g.backward() (second derivative)", w.grad)
    w.grad = None
    rec("y.backward() again (graph kept by create_graph)", lambda: y.backward())
    rec("w.grad after y.backward() again", w.grad)
