"""Resetting grads: .grad.zero_() keeps a zero Value, .grad = None starts afresh."""


def run(B, rec):
    w = B.value(-1.5, requires_grad=True)
    x = B.value(2.25, requires_grad=True)
    y = w * x + w
    y.backward()
    rec("w.grad", w.grad)
    rec("w.grad.zero_()", lambda: w.grad.zero_())
    rec("w.grad after zero_", w.grad)
    rec("x.grad untouched", x.grad)
    (w * x).backward()
    rec("w.grad after zero_ + backward", w.grad)
    w.grad = None
    rec("w.grad after = None", w.grad)
    (w * w).backward()
    rec("w.grad after None + backward", w.grad)
    x.grad = None
    rec("x.grad after = None", x.grad)
    w.grad = None
    for step in range(3):
        (w * 4.0).backward()
        rec(f"accumulate step {step}", w.grad)
        if step == 1:
            w.grad.zero_()
            rec("zeroed at step 1", w.grad)
    rec("x.grad at end", x.grad)
