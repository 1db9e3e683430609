"""Gradients accumulate over backward calls of freshly built graphs."""


def run(B, rec):
    w = B.value(0.75, requires_grad=True)
    x = B.value(-2.5, requires_grad=True)
    for i in range(4):
        y = (w * x + i).tanh() + w * w
        y.backward()
        rec(f"iter {i}: y", y)
        rec(f"iter {i}: w.grad", w.grad)
        rec(f"iter {i}: x.grad", x.grad)
    total = B.value(0.0)
    for i in range(3):
        total = total + w * (i + 0.5)
    total.backward()
    rec("after sum-loop w.grad", w.grad)
    rec("x.grad untouched by sum-loop", x.grad)
    rec("w.grad.requires_grad", w.grad.requires_grad)
    rec("w.grad.is_leaf", w.grad.is_leaf)
    rec("w.grad.grad_fn", w.grad.grad_fn)
