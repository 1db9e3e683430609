"""Changing a saved value through detach() is caught by the shared version counter."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    y = w * w
    w.detach().add_(1)
    rec("w._version", w._version)
    rec("y=w*w; w.detach().add_(1); backward", lambda: y.backward())
    rec("w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    a = w + 1
    y = a * a
    a.detach().mul_(2)
    rec("y=a*a; a.detach().mul_(2); backward", lambda: y.backward())

    w = B.value(1.5, requires_grad=True)
    y = w + 1
    w.detach().add_(1)
    rec("y=w+1; w.detach().add_(1); backward", lambda: y.backward())
    rec("w.grad (add case)", w.grad)

    w = B.value(1.5, requires_grad=True)
    y = w.exp()
    y.detach().zero_()
    rec("y=exp(w); y.detach().zero_(); backward", lambda: y.backward())
    rec("y after zeroing through detach", y)
