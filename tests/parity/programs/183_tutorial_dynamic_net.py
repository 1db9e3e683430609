"""The "Learning PyTorch with examples" DynamicNet, on values of our own: a fifth parameter reused a
random number of times (a seeded generator picks 4 or 5 on both libraries), trained by SGD with
momentum; its graph reuses one leaf many times and its gradient sums every use."""

import random


def run(B, rec):
    nn = B.nn
    rng = random.Random(7)

    class DynamicNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(B.value(0.11))
            self.b = nn.Parameter(B.value(-0.07))
            self.c = nn.Parameter(B.value(0.05))
            self.d = nn.Parameter(B.value(0.02))
            self.e = nn.Parameter(B.value(-0.01))

        def forward(self, x):
            y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
            for exp in range(4, rng.randint(4, 6)):
                y = y + self.e * x ** exp
            return y

    model = DynamicNet()
    xs = [-1.5, -0.6, 0.3, 0.9, 1.4]
    ys = [-0.99, -0.56, 0.29, 0.78, 0.98]
    opt = B.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    for t in range(6):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys))
        rec(f"step {t}: loss", loss)
        opt.zero_grad()
        loss.backward()
        rec(f"step {t}: e.grad", model.e.grad)
        opt.step()
    rec("parameters", list(model.parameters()))
    y = model(0.5)
    rec("grad_fn of a forward", y.grad_fn)
    rec("its inputs", y.grad_fn.next_functions)
