"""nn's activation modules as the tutorials call them, and "Exclusion from the DAG" (freezing a model's
parameters, then replacing its head), on values of our own: an activation given a value gives a value, given a
bare Python number it is torch's TypeError naming the function; train()/eval()/requires_grad_() return the module."""


def run(B, rec):
    nn = B.nn
    for module in (nn.Tanh(), nn.ReLU(), nn.Sigmoid()):
        name = type(module).__name__
        v = B.value(-0.45, requires_grad=True)
        out = module(v)
        rec(f"{name}(value)", (out, out.grad_fn))
        out.backward()
        rec(f"{name}(value): grad", v.grad)
        for label, arg in (("0.5", 0.5), ("2", 2), ("None", None)):
            rec(f"{name}({label})", lambda: module(arg))

    class Scale(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = nn.Parameter(B.value(k))

        def forward(self, x):
            return self.k * x

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = Scale(1.5)
            self.head = Scale(-0.5)

        def forward(self, x):
            return self.head(nn.Tanh()(self.body(x)))

    m = Net()
    for p in m.parameters():
        p.requires_grad = False
    m.head = Scale(2.0)
    rec("requires_grad after freezing and a new head", [p.requires_grad for p in m.parameters()])
    out = m(B.value(0.8))
    out.backward()
    rec("grads: only the head's", (out, [p.grad for p in m.parameters()]))
    rec("train() is m, eval() is m", (m.train() is m, m.eval() is m, m.training, m.body.training))
    rec("requires_grad_(False) is m", m.requires_grad_(False) is m)
    rec("after requires_grad_(False)", [p.requires_grad for p in m.parameters()])
    rec("train(0)", lambda: m.train(0))
    rec("forward with nothing requiring grad", lambda: m(B.value(0.8)).backward())
