""".data: a detached view that does not bump the version, so backward uses the new value."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    rec("w.data", w.data)
    rec("w.data.requires_grad", w.data.requires_grad)
    rec("w.data.is_leaf", w.data.is_leaf)
    rec("w.data.grad_fn", w.data.grad_fn)
    y = w * w
    rec("y", y)
    rec("w.data.add_(1)", lambda: w.data.add_(1))
    rec("w after w.data.add_", w)
    rec("w._version", w._version)
    rec("y.backward() after w.data changed", lambda: y.backward())
    rec("y keeps its old value", y)
    rec("w.grad uses the new value", w.grad)

    w.data = B.value(-0.75)
    rec("w after w.data = value", w)
    rec("w.is_leaf", w.is_leaf)
    rec("w.requires_grad", w.requires_grad)
    rec("w._version after .data assignment", w._version)
    rec("w.grad kept", w.grad)

    a = w * 3
    rec("a.data", a.data)
    rec("a.data.is_leaf", a.data.is_leaf)
    rec("a.data.requires_grad", a.data.requires_grad)
    a.data.mul_(2)
    rec("a after a.data.mul_", a)
    rec("a._version after a.data.mul_", a._version)
    rec("a.grad_fn", a.grad_fn)

    w = B.value(1.5, requires_grad=True)
    y = w.exp()
    y.data.zero_()
    rec("exp output zeroed via .data: backward", lambda: y.backward())
    rec("w.grad uses the zeroed output", w.grad)
