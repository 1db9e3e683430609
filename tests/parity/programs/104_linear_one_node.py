"""nn.Linear is one node in torch: a second backward through a layer fails before any gradient is written (one row or a batch, with or without bias, input values or numbers, two layers with tanh between), retain_graph=True doubles every gradient, and the gradients themselves."""


def run(B, rec):
    def grads(layer):
        out = [[p.grad for p in row] for row in layer.weight]
        return out + ([[p.grad for p in layer.bias]] if layer.bias is not None else [])

    def flat(rows):
        return [v for row in rows for v in row] if isinstance(rows[0], list) else list(rows)

    weight = [[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]
    cases = {
        "one row": ([1.0, -2.0, 0.5], True, False),
        "one row of values": ([1.0, -2.0, 0.5], True, True),
        "one row, no bias": ([1.0, -2.0, 0.5], False, True),
        "batch": ([[1.0, -2.0, 0.5], [3.0, 0.125, -1.0]], True, False),
        "batch of values": ([[1.0, -2.0, 0.5], [3.0, 0.125, -1.0]], True, True),
        "batch of values, no bias": ([[1.0, -2.0, 0.5], [3.0, 0.125, -1.0]], False, True),
    }
    for name, (x, with_bias, values) in cases.items():
        layer = B.linear(weight, [0.25, -3.0] if with_bias else None)
        if values:
            x = [B.value(v, requires_grad=True) for v in x] if not isinstance(x[0], list) else \
                [[B.value(v, requires_grad=True) for v in row] for row in x]
        out = layer(x)
        rec(f"{name}: output", out)
        loss = B.sum([v * v for v in flat(out)])
        loss.backward()
        rec(f"{name}: grads", grads(layer))
        if values:
            rec(f"{name}: input grads", [v.grad for v in flat(x)])
        rec(f"{name}: second backward", lambda: loss.backward())
        rec(f"{name}: grads after the failed second", grads(layer))
        if values:
            rec(f"{name}: input grads after the failed second", [v.grad for v in flat(x)])
        loss = B.sum(flat(layer(x)))
        loss.backward(retain_graph=True)
        loss.backward()
        rec(f"{name}: grads after retain_graph", grads(layer))

    first = B.linear([[1.0, -1.0], [0.5, 2.0], [-1.5, 0.25]], [0.1, 0.2, 0.3])
    second = B.linear([[2.0, -0.5, 1.0]], [0.5])
    x = [B.value(0.75, requires_grad=True), B.value(-1.5, requires_grad=True)]
    hidden = [h.tanh() for h in first(x)]
    (y,) = second(hidden)
    rec("two layers: y", y)
    y.backward()
    rec("two layers: grads", (grads(first), grads(second), [v.grad for v in x]))
    rec("two layers: second backward", lambda: y.backward())
    rec("two layers: grads after the failed second", (grads(first), grads(second), [v.grad for v in x]))
    h0 = first(x)[0]
    (y,) = second([h0, h0 * 2, h0 * 3])
    rec("one output used three times", B.grad(y, x[0]))
