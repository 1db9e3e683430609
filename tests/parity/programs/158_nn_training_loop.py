"""The training loop the tutorials teach, on a two-layer network of one-element values: hidden =
tanh(Linear(2, 3)(x)), out = Linear(3, 1)(hidden) over a batch of four points of our own, the loss
``mse_loss`` (the mean), ``optimizer.zero_grad()``, ``loss.backward()``, ``optimizer.step()`` with SGD
for four steps: the loss, every parameter's gradient and value; the input's gradient."""


def run(B, rec):
    first = B.linear([[0.5, -0.25], [1.0, 0.75], [-0.5, 0.3]], [0.1, -0.2, 0.05])
    second = B.linear([[0.8, -1.2, 0.4]], [0.0])
    params = list(first.parameters()) + list(second.parameters())
    optimizer = B.optim.SGD(params, lr=0.1)
    xs = [[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0], [0.0, -0.5]]
    ys = [1.0, -0.5, 0.25, 0.75]

    def grads(layer):
        return ([[p.grad for p in row] for row in layer.weight], [p.grad for p in layer.bias])

    def values(layer):
        return ([[p.item() for p in row] for row in layer.weight], [p.item() for p in layer.bias])

    for step in range(4):
        hidden = [[h.tanh() for h in row] for row in first(xs)]
        out = [row[0] for row in second(hidden)]
        loss = B.mse_loss(out, ys)
        rec(f"step {step}: loss", loss)
        optimizer.zero_grad()
        loss.backward()
        rec(f"step {step}: grads", (grads(first), grads(second)))
        optimizer.step()
        rec(f"step {step}: parameters", (values(first), values(second)))
    x = [B.value(0.5, requires_grad=True), B.value(-1.0, requires_grad=True)]
    hidden = [h.tanh() for h in first(x)]
    (y,) = second(hidden)
    loss = B.mse_loss([y], [1.0])
    loss.backward()
    rec("input's gradient", [v.grad for v in x])
