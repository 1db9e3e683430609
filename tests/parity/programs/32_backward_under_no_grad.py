"""A graph built with grad can be run backward inside no_grad."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    y = w * w * x
    with B.no_grad():
        rec("y.backward() inside no_grad", lambda: y.backward())
        rec("w.grad", w.grad)
        rec("x.grad", x.grad)
        y2 = (w * x).exp()
    rec("y2 built under no_grad: backward", lambda: y2.backward())

    y3 = (w * x).exp()
    with B.no_grad():
        rec("grad() inside no_grad", B.grad(y3, [w, x]))
    y4 = w ** 3
    with B.no_grad():
        g = B.grad(y4, w, create_graph=True)
    rec("create_graph under no_grad: grad", g)
