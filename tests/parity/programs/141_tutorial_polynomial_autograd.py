"""PyTorch's tutorial "Learning PyTorch with examples", its autograd step: fit y = a + b x + c x^2 + d x^3
to sin(x) at a few points of our own, by hand: the loss as a Python sum of squares, ``loss.backward()``,
the update under ``no_grad`` (``a -= learning_rate * a.grad``), then ``a.grad = None``; again resetting
with ``a.grad.zero_()``; the tutorial's dynamic net (a loop chooses how often the shared weight e is used)."""

import math


def run(B, rec):
    xs = [-2.5, -1.25, -0.5, 0.25, 1.0, 2.0, 3.0]
    ys = [math.sin(x) for x in xs]
    learning_rate = 1e-3
    for reset in ("grad = None", "grad.zero_()"):
        a, b, c, d = (B.value(v, requires_grad=True) for v in (0.2, -0.4, 0.1, 0.05))
        for t in range(4):
            y_pred = [a + b * x + c * x ** 2 + d * x ** 3 for x in xs]
            loss = sum((p - y) ** 2 for p, y in zip(y_pred, ys))
            rec(f"{reset}, step {t}: loss", loss)
            loss.backward()
            rec(f"{reset}, step {t}: grads", (a.grad, b.grad, c.grad, d.grad))
            with B.no_grad():
                a -= learning_rate * a.grad
                b -= learning_rate * b.grad
                c -= learning_rate * c.grad
                d -= learning_rate * d.grad
            if reset == "grad = None":
                a.grad = None
                b.grad = None
                c.grad = None
                d.grad = None
            else:
                for p in (a, b, c, d):
                    p.grad.zero_()
            rec(f"{reset}, step {t}: a, b, c, d", (a, b, c, d))
            rec(f"{reset}, step {t}: still leaves", (a.is_leaf, a.grad_fn, a.requires_grad))
        rec(f"{reset}: Result", f"y = {a.item():.12f} + {b.item():.12f} x + {c.item():.12f} x^2 + {d.item():.12f} x^3")

    # forgetting to reset: the gradients of every step add up
    a = B.value(0.2, requires_grad=True)
    for t in range(3):
        loss = sum((a * x - y) ** 2 for x, y in zip(xs, ys))
        loss.backward()
        rec(f"no reset, step {t}: a.grad", a.grad)
    # forgetting no_grad: the update is recorded and a stops being a leaf
    a = B.value(0.2, requires_grad=True)
    loss = sum((a * x - y) ** 2 for x, y in zip(xs, ys))
    loss.backward()
    rec("update without no_grad", lambda: a.sub_(learning_rate * a.grad))
    b = B.value(0.2, requires_grad=True)
    loss = sum((b * x - y) ** 2 for x, y in zip(xs, ys))
    loss.backward()
    b = b - learning_rate * b.grad
    rec("b = b - lr * b.grad: is_leaf, grad_fn", (b.is_leaf, b.grad_fn))
    rec("its .grad", b.grad)

    # the dynamic net: the fourth and fifth powers reuse one weight e, as many times as the loop says
    a, b, c, d, e = (B.value(v, requires_grad=True) for v in (0.1, 0.3, -0.2, 0.05, 0.01))
    for t, extra in enumerate((4, 5, 4, 6)):
        loss = 0
        for x, y in zip(xs, ys):
            y_pred = a + b * x + c * x ** 2 + d * x ** 3
            for exp in range(4, extra):
                y_pred = y_pred + e * x ** exp
            loss = loss + (y_pred - y) ** 2
        loss.backward()
        rec(f"dynamic step {t} ({extra - 4} uses of e): loss and e.grad", (loss, e.grad))
        with B.no_grad():
            for p in (a, b, c, d, e):
                if p.grad is not None:  # e gets none when the loop did not use it
                    p -= 1e-5 * p.grad
                    p.grad = None
    rec("dynamic: e", e)
