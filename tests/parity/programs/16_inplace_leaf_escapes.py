"""no_grad, .data and detach() let a leaf be changed in place; versions show which."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    rec("w._version at start", w._version)
    with B.no_grad():
        rec("no_grad: w.add_(0.5)", lambda: w.add_(0.5))
        rec("no_grad: w *= 3", lambda: w.mul_(3))
        t = w
        t -= 0.25
        rec("no_grad: same object after -=", t is w)
    rec("w after no_grad updates", w)
    rec("w._version after no_grad", w._version)
    rec("w.is_leaf", w.is_leaf)
    rec("w.requires_grad", w.requires_grad)
    rec("w.grad_fn", w.grad_fn)

    rec("w.data.add_(1.0)", lambda: w.data.add_(1.0))
    rec("w after .data.add_", w)
    rec("w._version after .data.add_ (unchanged)", w._version)
    rec("w.data.mul_(2)", lambda: w.data.mul_(2))
    rec("w after .data.mul_", w)

    d = w.detach()
    rec("w.detach().sub_(1.25)", lambda: d.sub_(1.25))
    rec("w after detach().sub_", w)
    rec("w._version after detach().sub_", w._version)
    rec("d._version", d._version)
    rec("d.fill_(-0.5)", lambda: d.fill_(-0.5))
    rec("w after fill_", w)
    rec("w._version after fill_", w._version)
    rec("d.zero_()", lambda: d.zero_())
    rec("w after zero_", w)
    rec("d.copy_(value)", lambda: d.copy_(B.value(2.75)))
    rec("w after copy_", w)
    rec("w._version at end", w._version)
    rec("d._version at end", d._version)

    y = w * w
    y.backward()
    rec("w.grad after updates", w.grad)
    with B.no_grad():
        w -= 0.125 * w.grad
    rec("sgd step w", w)
    rec("sgd step w.is_leaf", w.is_leaf)
    rec("sgd step w._version", w._version)
