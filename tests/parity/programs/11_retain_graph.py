"""retain_graph=True keeps saved values for one more backward; grads double."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    y = (x + w) * (w + 1)
    rec("backward(retain_graph=True)", lambda: y.backward(retain_graph=True))
    rec("w.grad after 1", w.grad)
    rec("x.grad after 1", x.grad)
    rec("backward(retain_graph=True) again", lambda: y.backward(retain_graph=True))
    rec("w.grad after 2", w.grad)
    rec("backward() (frees)", lambda: y.backward())
    rec("w.grad after 3", w.grad)
    rec("x.grad after 3", x.grad)
    rec("backward() after freeing", lambda: y.backward())
    rec("w.grad after failed 4", w.grad)
    z = (w * x).sin()
    rec("grad(z, w, retain_graph=True)", B.grad(z, w, retain_graph=True))
    rec("grad(z, x) after retained grad()", B.grad(z, x))
    rec("grad(z, x) once more", lambda: B.grad(z, x))
