"""What a student meets when the "Learning PyTorch with examples" polynomial loop is written wrong, on
values of our own: the update outside ``no_grad`` (the leaf error), ``a = a - lr * a.grad`` (a rebound
non-leaf whose ``.grad`` is None, with torch's warning, then a TypeError), ``a.grad.zero_()`` before
any backward (AttributeError), no reset at all (gradients accumulate), backward of a loss computed
under ``no_grad``, ``.item()`` of a loss, ``a.data -= ...`` and ``a.detach().sub_()``."""


def run(B, rec):
    xs = [-1.0, -0.25, 0.5, 1.25]
    ys = [-0.8, -0.3, 0.45, 0.95]

    def params():
        return [B.value(v, requires_grad=True) for v in (0.1, -0.2, 0.3, 0.05)]

    def loss_of(a, b, c, d):
        total = None
        for x, y in zip(xs, ys):
            y_pred = a + b * x + c * x ** 2 + d * x ** 3
            term = (y_pred - y).pow(2)
            total = term if total is None else total + term
        return total

    lr = 0.05
    a, b, c, d = params()
    rec("a.grad.zero_() before any backward", lambda: a.grad.zero_())
    loss = loss_of(a, b, c, d)
    rec("loss.item()", loss.item())
    loss.backward()
    rec("a -= lr * a.grad outside no_grad", lambda: a.__isub__(lr * a.grad))
    rec("a after the refused update", (a, a.is_leaf, a._version))
    rec("a.sub_(...) outside no_grad", lambda: a.sub_(lr * a.grad))
    rec("a.data -= lr * a.grad", lambda: a.data.__isub__(lr * a.grad))
    rec("after a.data -=: a, version, is_leaf", (a, a._version, a.is_leaf))
    rec("b.detach().sub_(lr * b.grad)", lambda: b.detach().sub_(lr * b.grad))
    rec("after detach().sub_: b, version", (b, b._version))
    with B.no_grad():
        c -= lr * c.grad
        d.sub_(d.grad, alpha=lr)
    rec("no_grad updates: c, d, versions", (c, d, c._version, d._version, c.is_leaf, c.requires_grad))
    rec("grads kept without reset", (a.grad, b.grad, c.grad, d.grad))
    loss_of(a, b, c, d).backward()
    rec("second backward without reset: grads", (a.grad, b.grad, c.grad, d.grad))

    # rebinding instead of updating in place
    a, b, c, d = params()
    loss_of(a, b, c, d).backward()
    a = a - lr * a.grad
    rec("a = a - lr * a.grad", (a, a.is_leaf, a.grad_fn, a.requires_grad))
    loss_of(a, b, c, d).backward()
    rec("its .grad after the next backward", a.grad)
    rec("the next update", lambda: a - lr * a.grad)

    # the loss computed under no_grad
    a, b, c, d = params()
    with B.no_grad():
        loss = loss_of(a, b, c, d)
    rec("loss under no_grad", (loss, loss.requires_grad, loss.grad_fn))
    rec("its backward", lambda: loss.backward())

    # backward twice on one loss
    loss = loss_of(a, b, c, d)
    loss.backward()
    rec("backward twice", lambda: loss.backward())
    rec("grads after the refused second pass", (a.grad, b.grad, c.grad, d.grad))

    # zero_grad by hand both ways, then one clean step
    for p in (a, b, c, d):
        p.grad.zero_()
    b.grad = None
    loss_of(a, b, c, d).backward()
    rec("after zero_() / = None: grads", (a.grad, b.grad, c.grad, d.grad))
