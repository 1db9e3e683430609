"""PyTorch's tutorial "Learning PyTorch with examples", its nn and optim steps on one-element values: a
Linear layer over the features (x, x^2, x^3) at points of our own, the loss summed by hand,
``model.zero_grad()``, ``loss.backward()``, the update of every parameter under ``no_grad``; then the
same with ``optim.SGD`` (``optimizer.zero_grad()``, ``optimizer.step()``), with and without momentum;
an SGD over scalar leaves; SGD's argument errors."""

import math


def run(B, rec):
    xs = [-2.0, -0.75, 0.5, 1.25, 2.5]
    features = [[x, x ** 2, x ** 3] for x in xs]
    ys = [math.sin(x) for x in xs]

    def loss_of(model):
        out = [row[0] for row in model(features)]
        return sum((p - y) ** 2 for p, y in zip(out, ys))

    def params(model):
        return ([[p.item() for p in row] for row in model.weight], [p.item() for p in model.bias])

    model = B.linear([[0.1, -0.2, 0.05]], [0.3])
    learning_rate = 1e-3
    for t in range(3):
        loss = loss_of(model)
        rec(f"nn step {t}: loss", loss)
        model.zero_grad()
        loss.backward()
        rec(f"nn step {t}: grads", ([[p.grad for p in row] for row in model.weight], [p.grad for p in model.bias]))
        with B.no_grad():
            for param in model.parameters():
                param -= learning_rate * param.grad
        rec(f"nn step {t}: parameters", params(model))

    for momentum in (0.0, 0.9):
        model = B.linear([[0.1, -0.2, 0.05]], [0.3])
        optimizer = B.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum)
        for t in range(3):
            loss = loss_of(model)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            rec(f"SGD momentum={momentum} step {t}: loss, parameters", (loss, params(model)))

    a, b = B.value(0.5, requires_grad=True), B.value(-1.0, requires_grad=True)
    optimizer = B.optim.SGD([a, b], lr=0.1, momentum=0.5, weight_decay=0.01)
    for t in range(3):
        loss = sum((a + b * x - y) ** 2 for x, y in zip(xs, ys))
        optimizer.zero_grad()
        rec(f"scalars step {t}: grads after zero_grad", (a.grad, b.grad))
        loss.backward()
        optimizer.step()
        rec(f"scalars step {t}: a, b", (a, b))
    rec("step without gradients", lambda: (optimizer.zero_grad(), optimizer.step(), (a, b))[2])
    rec("SGD(lr=-1)", lambda: B.optim.SGD([a], lr=-1.0))
    rec("SGD(momentum=-1)", lambda: B.optim.SGD([a], lr=0.1, momentum=-1.0))
    rec("SGD([])", lambda: B.optim.SGD([], lr=0.1))
    rec("SGD of a non-leaf", lambda: B.optim.SGD([a * 2], lr=0.1))
    rec("SGD nesterov without momentum", lambda: B.optim.SGD([a], lr=0.1, nesterov=True))
