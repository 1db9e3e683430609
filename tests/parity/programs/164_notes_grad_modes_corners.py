"""The "Autograd mechanics" notes' grad modes and the grad-mode docstrings, on values of our own, at
corners not tried elsewhere: ``no_grad`` leaves a value made with ``requires_grad=True`` alone (the
docstring's exception for factory functions), a decorated generator runs each step in the mode,
``set_grad_enabled`` as a decorator, a mode left by an exception, ``enable_grad`` inside
``inference_mode``, ``inference_mode(False)``, ``Module.requires_grad_()`` to freeze a layer (the
notes' module-level spelling) and ``eval()``, which changes no grad mode."""


def run(B, rec):
    x = B.value(1.5, requires_grad=True)
    with B.no_grad():
        made = B.value(2.0, requires_grad=True)
        flagged = B.value(2.0).requires_grad_()
        p = B.nn.Parameter(B.value(0.5))
        y = made * 2
    rec("no_grad: values made with requires_grad", (made.requires_grad, flagged.requires_grad, p.requires_grad,
                                                    y.requires_grad))

    @B.no_grad()
    def steps():
        for k in range(2):
            yield (B.is_grad_enabled(), (x * k).requires_grad)

    seen = []
    for s in steps():
        seen.append((s, B.is_grad_enabled()))
    rec("no_grad generator: inside, outside", str(seen))

    @B.set_grad_enabled(False)
    def off(v):
        return v * 2

    rec("after decorating with set_grad_enabled(False)", B.is_grad_enabled())
    rec("the decorated function", off(x).requires_grad)
    rec("after calling it", B.is_grad_enabled())

    def fails():
        with B.no_grad():
            raise ValueError("stop")

    rec("an exception in no_grad", fails)
    rec("grad mode after it", B.is_grad_enabled())
    try:
        with B.enable_grad():
            with B.set_grad_enabled(False):
                raise KeyError("k")
    except KeyError:
        pass
    rec("after nested modes left by an exception", B.is_grad_enabled())

    with B.inference_mode():
        with B.enable_grad():
            y = x * 2
            rec("enable_grad in inference_mode", (B.is_grad_enabled(), B.is_inference_mode_enabled()))
        with B.inference_mode(False):
            z = x * 2
            rec("inference_mode(False) inside", (B.is_inference_mode_enabled(), B.is_grad_enabled()))
    rec("enable_grad in inference_mode: result", (y.requires_grad, y.grad_fn, y.is_inference()))
    rec("inference_mode(False) inside: result", (z.requires_grad, z.grad_fn, z.is_inference()))
    with B.inference_mode(mode=False):
        u = x * 2
    rec("inference_mode(mode=False)", (u.requires_grad, u.is_inference()))
    with B.inference_mode():
        t = B.value(3.0)
    rec("inference value: clone outside", (t.clone().is_inference(), t.clone().requires_grad))
    rec("inference value: requires_grad_ outside", lambda: t.requires_grad_())
    rec("inference value: add_ outside", lambda: t.add_(1))
    rec("inference value: plain op outside", (t * 2).is_inference())

    nn = B.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(B.value(0.5))
            self.b = nn.Parameter(B.value(-1.0))

        def forward(self, v):
            return self.a * v + self.b

    net = Net()
    rec("requires_grad_(False) returns the module", net.requires_grad_(False) is net)
    rec("frozen parameters", [q.requires_grad for q in net.parameters()])
    out = net(x)
    rec("frozen net: output", (out.requires_grad, out.grad_fn))
    out.backward()
    rec("frozen net: grads", (net.a.grad, net.b.grad, x.grad))
    net.requires_grad_()
    rec("requires_grad_() again", [q.requires_grad for q in net.parameters()])
    rec("eval() returns the module", net.eval() is net)
    out = net(x)
    rec("eval mode: output still records", (out.requires_grad, out.grad_fn, net.training))
    out.backward()
    rec("eval mode: grads", (net.a.grad, net.b.grad))
