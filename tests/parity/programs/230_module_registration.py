"""What a Module registers, on values of our own: Parameters and Modules assigned as attributes are, a
plain list of them is not (torch's ParameterList/ModuleList are the registered kinds); parameters(recurse=False);
a Parameter made from a number is refused, as torch refuses it (it detaches what it is given)."""


def run(B, rec):
    nn = B.nn

    class Scale(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = nn.Parameter(B.value(k))

        def forward(self, x):
            return self.k * x

    class Listed(nn.Module):
        def __init__(self):
            super().__init__()
            self.own = nn.Parameter(B.value(0.3))
            self.extra = [nn.Parameter(B.value(1.25)), nn.Parameter(B.value(-2.5))]
            self.stages = [Scale(2.0), Scale(-0.5)]
            self.inner = Scale(4.0)

        def forward(self, x):
            for stage in self.stages:
                x = stage(x)
            return self.inner(x) * self.own + self.extra[0] * self.extra[1]

    m = Listed()
    rec("parameters", [p.item() for p in m.parameters()])
    rec("parameters(recurse=False)", [p.item() for p in m.parameters(recurse=False)])
    rec("children", [type(c).__name__ for c in m.children()])
    rec("modules", len(list(m.modules())))
    out = m(B.value(1.5))
    out.backward()
    rec("out", out)
    rec("grads of the listed ones still written", [p.grad for p in m.extra] + [s.k.grad for s in m.stages])
    m.zero_grad()
    rec("zero_grad skips the listed ones", ([p.grad for p in m.parameters()], [p.grad for p in m.extra],
                                            [s.k.grad for s in m.stages]))
    m.eval()
    rec("eval skips the listed modules", (m.inner.training, [s.training for s in m.stages]))
    opt = B.optim.SGD(m.parameters(), lr=0.1)
    m(B.value(1.5)).backward()
    opt.step()
    rec("SGD moves only the registered ones", ([p.item() for p in m.parameters()], [p.item() for p in m.extra]))

    for name, arg in (("1.5", 1.5), ("2", 2), ("True", True), ("a list", [0.5])):
        rec(f"Parameter({name})", lambda arg=arg: nn.Parameter(arg))
    p = nn.Parameter(B.value(-0.75), requires_grad=False)
    rec("Parameter(v, requires_grad=False)", (p, p.is_leaf, p.requires_grad))
