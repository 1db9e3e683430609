"""A leaf's first .grad has torch's version: the engine's in-place sums, the summed tensor kept or copied.

torch sums gradients meeting at a node in place when it holds the only reference
to the first one (one version each), keeps that tensor as ``.grad`` when nobody
else holds it, and copies it otherwise (``copy_``: version 1): a gradient passed
on unchanged by ``+`` to two edges, the caller's root gradient, a view from
``sum``.  Then ``.grad`` accumulates in place (one more version per backward).
"""


def run(B, rec):
    one = {
        "w + x": lambda w, x: w + x,
        "(w + x) * 3": lambda w, x: (w + x) * 3,
        "(x + w) * 3": lambda w, x: (x + w) * 3,
        "w - x": lambda w, x: w - x,
        "(w - x) * 3": lambda w, x: (w - x) * 3,
        "x - w": lambda w, x: x - w,
        "w + 1": lambda w, x: w + 1,
        "1 + w": lambda w, x: 1 + w,
        "w - 1": lambda w, x: w - 1,
        "(w + 1) * 3": lambda w, x: (w + 1) * 3,
        "w.clone() * 3": lambda w, x: w.clone() * 3,
        "w.clone()": lambda w, x: w.clone(),
        "-w": lambda w, x: -w,
        "-((w + x) * 3)": lambda w, x: -((w + x) * 3),
        "w * x": lambda w, x: w * x,
        "w + w": lambda w, x: w + w,
        "w + w + w": lambda w, x: w + w + w,
        "w - w": lambda w, x: w - w,
        "(w + w) * 3": lambda w, x: (w + w) * 3,
        "(w + w + w) * 3": lambda w, x: (w + w + w) * 3,
        "w + w * 2": lambda w, x: w + w * 2,
        "w * 2 + w": lambda w, x: w * 2 + w,
        "(w + w * 2).exp()": lambda w, x: (w + w * 2).exp(),
        "(w.exp() + w * 2) * 3": lambda w, x: (w.exp() + w * 2) * 3,
        "(w + x) * 3 + w": lambda w, x: (w + x) * 3 + w,
        "w + (w + x) * 3": lambda w, x: w + (w + x) * 3,
        "((w + x) + w) * 3": lambda w, x: ((w + x) + w) * 3,
        "(w + (x + w)) * 3": lambda w, x: (w + (x + w)) * 3,
        "(w + x) * (w + x)": lambda w, x: (w + x) * (w + x),
        "(w - x) * (w + x)": lambda w, x: (w - x) * (w + x),
        "(w + x) * (x - w)": lambda w, x: (w + x) * (x - w),
        "w.exp() + w.exp()": lambda w, x: w.exp() + w.exp(),
        "w * w * w": lambda w, x: w * w * w,
        "w.sin() * w.cos() + w": lambda w, x: w.sin() * w.cos() + w,
        "w ** 2 + w ** 3 + w ** 4": lambda w, x: w ** 2 + w ** 3 + w ** 4,
        "sum [w, x]": lambda w, x: B.sum([w, x]),
        "sum [w, x] * 3": lambda w, x: B.sum([w, x]) * 3,
        "sum [w, w]": lambda w, x: B.sum([w, w]),
        "sum [w, w] * 3": lambda w, x: B.sum([w, w]) * 3,
        "sum [w, w * 2, w]": lambda w, x: B.sum([w, w * 2, w]),
        "sum [w * 2, w, x * 3]": lambda w, x: B.sum([w * 2, w, x * 3]),
        "w.sum() * 3": lambda w, x: w.sum() * 3,
        "(w * 2 + w.sum()) * 3": lambda w, x: (w * 2 + w.sum()) * 3,
        "(w.sum() + w * 2) * 3": lambda w, x: (w.sum() + w * 2) * 3,
        "w.prod() * 3 + w * 2": lambda w, x: w.prod() * 3 + w * 2,
        "w * 2 + w.prod() * 3": lambda w, x: w * 2 + w.prod() * 3,
        "w.max() * 3": lambda w, x: w.max() * 3,
        "w * 3 + w.max()": lambda w, x: w * 3 + w.max(),
        "w.max() + w * 3": lambda w, x: w.max() + w * 3,
        "w.min() * 3": lambda w, x: w.min() * 3,
        "w.amax() * 3": lambda w, x: w.amax() * 3,
        "w.mean() * 3": lambda w, x: w.mean() * 3,
        "B.add(w, x, alpha=2) * 3": lambda w, x: B.add(w, x, alpha=2) * 3,
        "B.add(w, x, alpha=1) * 3": lambda w, x: B.add(w, x, alpha=1) * 3,
        "B.sub(w, x, alpha=2) * 3": lambda w, x: B.sub(w, x, alpha=2) * 3,
    }
    for name, f in one.items():
        w = B.value(1.5, requires_grad=True)
        x = B.value(-0.5, requires_grad=True)
        f(w, x).backward()
        rec(f"{name}: versions", tuple(None if v.grad is None else v.grad._version for v in (w, x)))
        rec(f"{name}: grads", (w.grad, x.grad))
        f(w, x).backward()
        rec(f"{name}: versions after a second backward", tuple(None if v.grad is None else v.grad._version for v in (w, x)))
    # roots: the caller holds the root gradient
    w = B.value(1.5, requires_grad=True)
    w.backward()
    rec("w.backward(): version", w.grad._version)
    w, x = B.value(1.5, requires_grad=True), B.value(2.0, requires_grad=True)
    B.backward([w * 3, x * 2])
    rec("two roots: versions", (w.grad._version, x.grad._version))
    w = B.value(1.5, requires_grad=True)
    B.backward([w * 3, w * 2])
    rec("two roots meeting at w: version", w.grad._version)
    w = B.value(1.5, requires_grad=True)
    B.backward([w, w])
    rec("backward([w, w]): version", w.grad._version)
    w = B.value(1.5, requires_grad=True)
    (w + 0).backward(B.value(2.0))
    rec("(w + 0).backward(gradient): version", w.grad._version)
    w = B.value(1.5, requires_grad=True)
    (w * 3).backward(B.value(2.0))
    rec("(w * 3).backward(gradient): version", w.grad._version)
    # views from sum share their memory (and version counter) between siblings' .grad
    w, x = B.value(1.5, requires_grad=True), B.value(2.0, requires_grad=True)
    B.sum([w, x]).backward()
    w.grad.zero_()
    rec("sum siblings: x.grad after w.grad.zero_()", (x.grad, x.grad._version))
    w, x = B.value(1.5, requires_grad=True), B.value(2.0, requires_grad=True)
    (B.sum([w, x]) * 3).backward()
    w.grad.add_(1)
    rec("sum * 3 siblings: x.grad after w.grad.add_(1)", (x.grad, x.grad._version))
    # grad() returns the gradient tensors themselves
    w, x = B.value(1.5, requires_grad=True), B.value(2.0, requires_grad=True)
    rec("grad of two paths: version", B.grad(w * 3 + w * 4, w)[0]._version)
    rec("grad of w * w: version", B.grad(w * w, w)[0]._version)
    r = B.grad(w + x, [w, x])
    rec("grad of w + x: versions", (r[0]._version, r[1]._version))
    r = B.grad((w + x) * 3, [w, x])
    rec("grad of (w + x) * 3: versions", (r[0]._version, r[1]._version))
    a = w * 2
    rec("grad of a non-leaf met twice: version", B.grad(a * 3 + a * 4, a)[0]._version)
