"""PyTorch's tutorial "Learning PyTorch with examples", its custom autograd Function: LegendrePolynomial3
saves its input with ``ctx.save_for_backward`` and returns ``grad_output * 1.5 * (5 input^2 - 1)``; the
model y = a + b P3(c + d x) fitted by hand at points of our own; the node's name, its saved input, the
second-backward error, gradcheck of the Function."""

import math


def run(B, rec):
    A = B.autograd

    class LegendrePolynomial3(A.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    P3 = LegendrePolynomial3.apply
    w = B.value(0.6, requires_grad=True)
    y = P3(w)
    rec("P3(0.6)", y)
    rec("node", y.grad_fn)
    rec("node's input", [n for n, _ in y.grad_fn.next_functions])
    rec("y.grad_fn.saved_tensors", lambda: y.grad_fn.saved_tensors)
    y.backward(retain_graph=True)
    rec("P3'(0.6)", w.grad)
    y.backward()
    rec("after a retained second backward", w.grad)
    rec("a third backward", lambda: y.backward())
    rec("gradcheck", A.gradcheck(P3, (B.value(0.3, requires_grad=True),)))
    with B.no_grad():
        rec("under no_grad", P3(w).requires_grad)

    xs = [-2.0, -1.0, -0.25, 0.5, 1.5, 2.5]
    ys = [math.sin(x) for x in xs]
    a, b, c, d = (B.value(v, requires_grad=True) for v in (0.0, -1.0, 0.0, 0.3))
    learning_rate = 5e-3
    for t in range(4):
        y_pred = [a + b * P3(c + d * x) for x in xs]
        loss = sum((p - y) ** 2 for p, y in zip(y_pred, ys))
        rec(f"step {t}: loss", loss)
        loss.backward()
        rec(f"step {t}: grads", (a.grad, b.grad, c.grad, d.grad))
        with B.no_grad():
            for p in (a, b, c, d):
                p -= learning_rate * p.grad
                p.grad = None
    rec("fitted", (a, b, c, d))
