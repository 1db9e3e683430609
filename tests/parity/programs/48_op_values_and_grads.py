"""Values and first derivatives of every op at a few ordinary points."""


def run(B, rec):
    unary = ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg")
    for op in unary:
        for p in (0.3, 1.7, -0.45, 3.25, 12.5):
            w = B.value(p, requires_grad=True)
            y = getattr(B, op)(w)
            y.backward()
            rec(f"{op}({p!r})", y)
            rec(f"{op}'({p!r})", w.grad)
    binary = {"add": B.add, "sub": B.sub, "mul": B.mul, "div": B.div, "pow": B.pow}
    for name, f in binary.items():
        for a, b in ((0.1, 0.3), (-1.75, 2.5), (3.5, -0.125)):
            u = B.value(a, requires_grad=True)
            v = B.value(b, requires_grad=True)
            y = f(u, v)
            y.backward()
            rec(f"{name}({a!r}, {b!r})", y)
            rec(f"{name}({a!r}, {b!r}) grads", (u.grad, v.grad))
    w = B.value(0.7, requires_grad=True)
    rec("w / w grads", B.grad(w / w, w))
    rec("w - w grads", B.grad(w - w, w))
    rec("w * w grads", B.grad(w * w, w))
