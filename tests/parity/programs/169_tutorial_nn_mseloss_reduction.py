""""Learning PyTorch with examples", its nn and optim sections on one-element values of our own:
``loss_fn = nn.MSELoss(reduction='sum')`` (and the default mean, and ``'none'``), ``model.zero_grad()``,
the update ``param -= learning_rate * param.grad`` over ``model.parameters()`` under ``no_grad``, then
the same with ``optim.SGD``; a reduction torch does not know."""


def run(B, rec):
    nn = B.nn
    xs = [-1.5, -0.5, 0.25, 1.0, 2.0]
    ys = [0.9, -0.4, 0.2, 0.85, -0.1]

    class Polynomial3(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter(B.value(0.1))
            self.b = nn.Parameter(B.value(0.3))
            self.c = nn.Parameter(B.value(-0.2))
            self.d = nn.Parameter(B.value(0.05))

        def forward(self, x):
            return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    for reduction in ("sum", "mean", "none"):
        loss_fn = nn.MSELoss(reduction=reduction)
        p, t = B.value(0.75, requires_grad=True), B.value(-0.25)
        loss = loss_fn(p, t)
        loss.backward()
        rec(f"MSELoss(reduction={reduction!r}) of one pair: loss, grad", (loss, p.grad))
    rec("MSELoss(reduction='avg')", lambda: nn.MSELoss(reduction="avg")(B.value(1.0), B.value(0.0)))
    rec("mse_loss default", nn.MSELoss()(B.value(1.5), B.value(0.5)))

    model = Polynomial3()
    loss_fn = nn.MSELoss(reduction="sum")
    learning_rate = 1e-2
    for t in range(3):
        loss = None
        for x, y in zip(xs, ys):
            term = loss_fn(model(x), B.value(y))
            loss = term if loss is None else loss + term
        rec(f"manual step {t}: loss", loss)
        model.zero_grad()
        loss.backward()
        with B.no_grad():
            for param in model.parameters():
                param -= learning_rate * param.grad
        rec(f"manual step {t}: parameters", [q.item() for q in model.parameters()])
        rec(f"manual step {t}: still leaves", [q.is_leaf for q in model.parameters()])

    model = Polynomial3()
    optimizer = B.optim.SGD(model.parameters(), lr=learning_rate)
    for t in range(3):
        loss = None
        for x, y in zip(xs, ys):
            term = loss_fn(model(x), B.value(y))
            loss = term if loss is None else loss + term
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        rec(f"SGD step {t}: loss, parameters", (loss, [q.item() for q in model.parameters()]))
