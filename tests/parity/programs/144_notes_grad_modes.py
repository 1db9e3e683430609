"""The "Autograd mechanics" notes and the grad-mode docstrings, on one-element values of our own:
requires_grad set on leaves and propagated, ``no_grad`` / ``enable_grad`` / ``set_grad_enabled`` /
``inference_mode`` as context managers, decorators (with and without parentheses) and calls, as their
docstrings show them; the in-place correctness check the notes describe."""


def run(B, rec):
    x = B.value(1.5, requires_grad=True)
    with B.no_grad():
        y = x * 2
    rec("no_grad: y.requires_grad", y.requires_grad)

    @B.no_grad()
    def doubler(v):
        return v * 2

    rec("@no_grad(): requires_grad", doubler(x).requires_grad)

    @B.no_grad
    def tripler(v):
        return v * 3

    rec("@no_grad: requires_grad", tripler(x).requires_grad)
    rec("tripler keeps its name", tripler.__name__)

    with B.no_grad():
        with B.enable_grad():
            y = x * 2
    rec("enable_grad in no_grad: requires_grad", y.requires_grad)
    y.backward()
    rec("enable_grad in no_grad: x.grad", x.grad)

    @B.enable_grad()
    def doubler2(v):
        return v * 2

    with B.no_grad():
        z = doubler2(x)
    rec("@enable_grad() under no_grad", z.requires_grad)

    @B.enable_grad
    def tripler2(v):
        return v * 3

    with B.no_grad():
        z = tripler2(x)
    rec("@enable_grad under no_grad", z.requires_grad)

    is_train = False
    with B.set_grad_enabled(is_train):
        y = x * 2
    rec("set_grad_enabled(False) block", y.requires_grad)
    _ = B.set_grad_enabled(True)
    y = x * 2
    rec("set_grad_enabled(True) call", y.requires_grad)
    _ = B.set_grad_enabled(False)
    y = x * 2
    rec("set_grad_enabled(False) call", y.requires_grad)
    rec("is_grad_enabled after the call", B.is_grad_enabled())
    _ = B.set_grad_enabled(True)
    rec("is_grad_enabled restored", B.is_grad_enabled())

    with B.inference_mode():
        y = x * x
    rec("inference_mode: requires_grad", y.requires_grad)
    rec("inference_mode: _version", lambda: y._version)
    rec("inference_mode: is_inference", y.is_inference())

    @B.inference_mode()
    def func(v):
        return v * v

    out = func(x)
    rec("@inference_mode(): requires_grad", out.requires_grad)

    @B.inference_mode
    def doubler3(v):
        return v * 2

    rec("@inference_mode: requires_grad", doubler3(x).requires_grad)
    rec("inference value used in a recorded op", lambda: (out * x).backward())

    # requires_grad: set on a leaf, propagated to results, refused on a non-leaf
    p = B.value(0.5)
    rec("default requires_grad", p.requires_grad)
    p.requires_grad_(True)
    q = p * 4
    rec("after requires_grad_: q.requires_grad, q.is_leaf", (q.requires_grad, q.is_leaf))
    rec("requires_grad_(False) on q", lambda: q.requires_grad_(False))
    p.requires_grad = False
    rec("p.requires_grad = False, then p * 4", (p * 4).requires_grad)

    # the in-place correctness check: a saved value changed after the forward
    a = B.value(0.75, requires_grad=True)
    b = a.sigmoid()
    c = b * 3
    rec("sigmoid saves its result: b.add_(1) then backward", lambda: (b.add_(1), c.backward()))
    a2 = B.value(0.75, requires_grad=True)
    b2 = a2 * 1
    c2 = b2.sin()
    b2.mul_(2)
    rec("sin saves its input: b.mul_(2) then backward", lambda: c2.backward())
    b3 = a2 * 1
    c3 = b3 + 1
    b3.mul_(2)
    rec("+ saves nothing: b.mul_(2) then backward", lambda: c3.backward())
    rec("a2.grad", a2.grad)
