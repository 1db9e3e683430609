"""Updating a leaf in place under no_grad invalidates graphs that saved it."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    y = w * w
    with B.no_grad():
        w -= 0.125
    rec("w._version", w._version)
    rec("y = w*w, update, backward", lambda: y.backward())
    rec("w.grad", w.grad)

    w = B.value(1.5, requires_grad=True)
    y = w + 1
    with B.no_grad():
        w -= 0.125
    rec("y = w+1, update, backward", lambda: y.backward())
    rec("w.grad (add saves nothing)", w.grad)

    w = B.value(1.5, requires_grad=True)
    lr = 0.25
    for step in range(3):
        loss = (w - 3.0) ** 2
        loss.backward()
        with B.no_grad():
            w -= lr * w.grad
        w.grad.zero_()
        rec(f"sgd step {step}: w", w)
        rec(f"sgd step {step}: loss", loss)
    rec("w still a leaf", w.is_leaf)
    rec("w._version after 3 steps", w._version)
