"""A leaf's .grad after one backward through every shape of graph: one path, several paths meeting at a
node, a leaf used twice by one op, sums of lists, reductions, alpha."""


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
        "w.mean() * 3": lambda w, x: w.mean() * 3,
        "B.add(w, x, alpha=2) * 3": lambda w, x: B.add(w, x, alpha=2) * 3,
        "B.add(w, x, alpha=1) * 3": lambda w, x: B.add(w, x, alpha=1) * 3,
        "B.sub(w, x, alpha=2) * 3": lambda w, x: B.sub(w, x, alpha=2) * 3,
    }
    for name, f in one.items():
        w = B.value(1.5, requires_grad=True)
        x = B.value(-0.5, requires_grad=True)
        f(w, x).backward()
        rec(f"{name}: grads", (w.grad, x.grad))
