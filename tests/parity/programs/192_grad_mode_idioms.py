"""Grad-mode idioms from training loops, on values of our own: set_grad_enabled(phase == "train") around
a forward, @no_grad on a module's method, grad mode seen inside hooks and a custom backward (with and
without create_graph), inference_mode around an evaluation, and a value made in one mode used in another."""


def run(B, rec):
    nn = B.nn

    class Lin(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(B.value(0.7))
            self.b = nn.Parameter(B.value(-0.2))

        def forward(self, x):
            return self.w * x + self.b

        @B.no_grad()
        def predict(self, x):
            return self.forward(x)

    m = Lin()
    for phase in ("train", "eval"):
        with B.set_grad_enabled(phase == "train"):
            out = m(1.5)
        rec(f"{phase}: out", (out, out.requires_grad, out.grad_fn))
    p = m.predict(2.0)
    rec("predict under @no_grad", (p, p.requires_grad))
    rec("mode after predict", B.is_grad_enabled())

    seen = []
    x = B.value(0.4, requires_grad=True)
    y = x * x
    y.register_hook(lambda g: seen.append(("tensor hook", B.is_grad_enabled())) or None)
    y.grad_fn.register_hook(lambda gi, go: seen.append(("node hook", B.is_grad_enabled())) or None)
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("post hook", B.is_grad_enabled())) or None)
    y.backward(retain_graph=True)
    rec("grad mode inside hooks", list(seen))
    seen.clear()
    B.grad(y, x, create_graph=True)
    rec("grad mode inside hooks with create_graph", list(seen))

    class Probe(B.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(("forward", B.is_grad_enabled()))
            return a * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(("backward", B.is_grad_enabled()))
            return g * 2

    seen.clear()
    Probe.apply(x).backward()
    B.grad(Probe.apply(x), x, create_graph=True)
    rec("grad mode inside a Function", list(seen))

    with B.inference_mode():
        e = m(3.0)
    rec("evaluated in inference_mode", (e, e.requires_grad))
    rec("used later in a graph", lambda: (e * m.w).backward())
    rec("e + 1 outside", lambda: (e + 1).requires_grad)
    with B.no_grad():
        n = m(3.0)
    (n * m.w).backward()
    rec("no_grad value used later", m.w.grad)
    B.set_grad_enabled(False)
    z = m(1.0)
    B.set_grad_enabled(True)
    rec("set_grad_enabled as a call", (z.requires_grad, B.is_grad_enabled()))

    modes = {True: B.set_grad_enabled(True), False: B.set_grad_enabled(False)}  # made once, entered later
    rec("after making both", B.is_grad_enabled())
    with B.enable_grad():
        with modes[False]:
            off = (m.w * 2).requires_grad
        rec("a set_grad_enabled(False) made earlier, entered", (off, B.is_grad_enabled()))
    with B.no_grad():
        with modes[True]:
            on = (m.w * 2).requires_grad
    rec("a set_grad_enabled(True) made earlier, entered under no_grad", (on, B.is_grad_enabled()))
