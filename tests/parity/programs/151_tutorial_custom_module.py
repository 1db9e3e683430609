"""PyTorch's tutorial "Learning PyTorch with examples", its custom nn Module: Polynomial3 keeps a, b, c,
d as ``nn.Parameter``s, ``parameters()`` lists them in order, ``optim.SGD`` trains them at points of our
own with ``optimizer.zero_grad()``, ``loss.backward()``, ``optimizer.step()``; ``train()``/``eval()``
and ``training``; ``zero_grad()`` leaving ``.grad`` None."""

import math


def run(B, rec):
    nn = B.nn

    class Polynomial3(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(B.value(0.2))
            self.b = nn.Parameter(B.value(-0.4))
            self.c = nn.Parameter(B.value(0.1))
            self.d = nn.Parameter(B.value(0.05))

        def forward(self, x):
            return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

        def string(self):
            return f"y = {self.a.item():.12f} + {self.b.item():.12f} x + {self.c.item():.12f} x^2 + {self.d.item():.12f} x^3"

    model = Polynomial3()
    params = list(model.parameters())
    rec("parameters", params)
    rec("a parameter is a leaf that requires grad", (params[0].is_leaf, params[0].requires_grad, params[0].grad))
    xs = [-2.0, -0.5, 0.75, 1.5, 2.5]
    ys = [math.sin(x) for x in xs]
    optimizer = B.optim.SGD(model.parameters(), lr=1e-3)
    for t in range(4):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys))
        rec(f"step {t}: loss", loss)
        optimizer.zero_grad()
        loss.backward()
        rec(f"step {t}: grads", [p.grad for p in model.parameters()])
        optimizer.step()
    rec("Result", model.string())
    model.zero_grad()
    rec("zero_grad(): grads", [p.grad for p in model.parameters()])
    rec("training by default", model.training)
    rec("eval() returns the module", model.eval() is model)
    rec("after eval()", model.training)
    rec("train() returns the module", model.train() is model)
    rec("after train()", model.training)
    model.train(False)
    rec("after train(False)", model.training)
