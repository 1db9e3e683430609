"""A student's own nn.Module (the tutorial's Polynomial3 shape), on values of our own, and the slips
made writing it: no super().__init__(), a Parameter rebound to a computed value, a Parameter set to
None, a frozen parameter, Parameter(requires_grad=False), a Parameter of a non-leaf, a shared
Parameter, forward missing, and the update written outside no_grad."""


def run(B, rec):
    nn = B.nn

    class NoInit(nn.Module):
        def __init__(self):
            self.a = nn.Parameter(B.value(0.3))

    rec("no super().__init__()", lambda: NoInit())

    class NoInitLayer(nn.Module):
        def __init__(self):
            self.scale = 0.5
            self.layer = nn.Linear(2, 1)

    rec("no super().__init__(), a layer", lambda: NoInitLayer())

    class Poly(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(B.value(-0.35))
            self.b = nn.Parameter(B.value(0.8))
            self.scale = 2.0

        def forward(self, x):
            return self.a + self.b * x * self.scale

    m = Poly()
    rec("parameters", list(m.parameters()))
    loss = (m(1.5) - 0.25) ** 2
    loss.backward()
    rec("grads", (m.a.grad, m.b.grad))
    rec("m.a = m.a - 0.1 * m.a.grad", lambda: setattr(m, "a", m.a - 0.1 * m.a.grad))
    rec("after the refused rebinding", (m.a, m.a.is_leaf, len(list(m.parameters()))))
    rec("m.a -= 0.1 * m.a.grad", lambda: m.a.__isub__(0.1 * m.a.grad))
    with B.no_grad():
        m.a -= 0.1 * m.a.grad
    rec("update under no_grad", (m.a, m.a.is_leaf, m.a.requires_grad, m.a._version))
    rec("m.b = 0.5", lambda: setattr(m, "b", 0.5))
    rec("m.scale = 3.0 (not a parameter)", lambda: setattr(m, "scale", 3.0))
    m.scale = 2.0
    rec("m.b = None", lambda: setattr(m, "b", None))
    rec("parameters after b = None", list(m.parameters()))
    rec("m.b = Parameter again", lambda: setattr(m, "b", nn.Parameter(B.value(0.6))))
    rec("parameters after", list(m.parameters()))
    rec("forward with b back", m(2.0))
    m.b.requires_grad_(False)
    m.zero_grad()
    out = m(0.5)
    out.backward()
    rec("frozen b: grads", (m.a.grad, m.b.grad))
    rec("frozen b: parameters still lists it", len(list(m.parameters())))

    p = nn.Parameter(B.value(1.25), requires_grad=False)
    rec("Parameter(requires_grad=False)", (p.requires_grad, p.is_leaf, p.grad_fn))
    w = B.value(0.5, requires_grad=True)
    q = nn.Parameter(w * 3)
    rec("Parameter of a non-leaf", (q.is_leaf, q.grad_fn, q.requires_grad, q.item()))
    (q * 2).backward()
    rec("its grad, and the source's", (q.grad, w.grad))

    class Shared(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(B.value(0.9))
            self.v = self.w

        def forward(self, x):
            return self.w * x + self.v * x * x

    s = Shared()
    rec("shared parameter listed once", len(list(s.parameters())))
    s(1.5).backward()
    rec("shared grad", s.w.grad)

    class NoForward(nn.Module):
        pass

    rec("calling a module without forward", lambda: NoForward()(B.value(1.0)))
    rec("train('yes')", lambda: s.train("yes"))
    rec("train(1)", lambda: s.train(1))
    rec("requires_grad_(False) returns the module", s.requires_grad_(False) is s)
    rec("after freezing", s.w.requires_grad)
