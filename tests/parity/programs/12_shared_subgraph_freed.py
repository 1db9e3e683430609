"""Freeing is per node: a shared subgraph freed by one output breaks the other's backward."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w * x
    y1 = a * 2
    y2 = a * 3
    rec("y1.backward()", lambda: y1.backward())
    rec("w.grad after y1", w.grad)
    rec("y2.backward()", lambda: y2.backward())
    rec("w.grad after y2 attempt", w.grad)
    rec("x.grad after y2 attempt", x.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w + x
    y1 = a * 2
    y2 = a * 3
    rec("add-shared y1.backward()", lambda: y1.backward())
    rec("add-shared y2.backward()", lambda: y2.backward())
    rec("add-shared w.grad", w.grad)
    rec("add-shared x.grad", x.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w * x
    y1 = a * 2
    y2 = a * 3
    rec("retained y1.backward(retain_graph=True)", lambda: y1.backward(retain_graph=True))
    rec("retained y2.backward()", lambda: y2.backward())
    rec("retained w.grad", w.grad)
    rec("retained x.grad", x.grad)
    rec("retained y1.backward() after y2 freed a", lambda: y1.backward())
    rec("retained w.grad at end", w.grad)

    w = B.value(1.5, requires_grad=True)
    a = w.exp()
    y1 = a + 1
    y2 = a - 1
    rec("exp-shared y1.backward()", lambda: y1.backward())
    rec("exp-shared y2.backward() (exp freed)", lambda: y2.backward())
    rec("exp-shared w.grad", w.grad)
