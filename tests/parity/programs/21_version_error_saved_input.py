"""A saved input modified in place after it was saved makes backward fail, with versions."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w + x
    b = w + 1
    y = a * b
    rec("a._version before", a._version)
    a.mul_(2)
    rec("a._version after mul_", a._version)
    rec("a.grad_fn after mul_", a.grad_fn)
    rec("y (old value)", y)
    rec("y.backward() (a modified)", lambda: y.backward())
    rec("w.grad after failure", w.grad)
    rec("x.grad after failure", x.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w + x
    b = w + 1
    y = a * b
    b.add_(1)
    rec("y.backward() (b modified by add_)", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a * a
    a.add_(1)
    a.sub_(0.5)
    rec("a._version after two in-place", a._version)
    rec("y.backward() (version 2)", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a * 3
    a.mul_(2)
    rec("a * 3 then a.mul_: y.backward()", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a + 3
    a.mul_(2)
    rec("a + 3 then a.mul_: y.backward() (add saves nothing)", lambda: y.backward())
    rec("w.grad (add case)", w.grad)

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75)
    y = w * x
    x.add_(1)
    rec("saved plain leaf modified: y.backward()", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75)
    y = w + x
    x.add_(1)
    rec("unsaved plain leaf modified: y.backward()", lambda: y.backward())
    rec("w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a.sin() + a.log()
    a.add_(0.5)
    rec("a shared by sin and log, modified: y.backward()", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a ** 3
    a.add_(0.5)
    rec("pow saves its base: y.backward()", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a / 3
    a.add_(0.5)
    rec("a / 3 then a.add_: y.backward()", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = 3 / a
    a.add_(0.5)
    rec("3 / a then a.add_: y.backward()", lambda: y.backward())
