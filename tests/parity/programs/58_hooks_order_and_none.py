"""Tensor hooks: the order leaves' hooks fire in, hooks called with None, the gradient a leaf's hook sees."""


def run(B, rec):
    log = []

    def tag(name):
        def hook(g):
            log.append(f"{name}:{None if g is None else g.item()}")
        return hook

    shapes = {
        "w * x": lambda w, x, z: w * x,
        "x * w": lambda w, x, z: x * w,
        "w * x * z": lambda w, x, z: w * x * z,
        "(w + x) * z": lambda w, x, z: (w + x) * z,
        "z * (x + w)": lambda w, x, z: z * (x + w),
        "w*x + x*z + z*w": lambda w, x, z: w * x + x * z + z * w,
        "sum": lambda w, x, z: B.sum([w, x, z]),
        "sum reversed": lambda w, x, z: B.sum([z, x, w]),
        "exp(w) * sin(x) + z": lambda w, x, z: w.exp() * x.sin() + z,
        "w + x + z": lambda w, x, z: w + x + z,
    }
    for name, f in shapes.items():
        for created in ("w x z", "z x w"):
            vals = {}
            for n in created.split():
                vals[n] = B.value({"w": 1.5, "x": -2.0, "z": 0.5}[n], requires_grad=True)
            w, x, z = vals["w"], vals["x"], vals["z"]
            for n in ("w", "x", "z"):
                vals[n].register_hook(tag(n))
            log.clear()
            f(w, x, z).backward()
            rec(f"{name} (leaves made {created}): hook order", list(log))
    # a hook on a value that no gradient reaches
    log.clear()
    w = B.value(1.0, requires_grad=True)
    x = B.value(2.0, requires_grad=True)
    a = w * x
    a.register_hook(tag("a"))

    class Stop(B.autograd.Function):
        @staticmethod
        def forward(ctx, u, v):
            return u * v

        @staticmethod
        def backward(ctx, g):
            return None, g

    y = Stop.apply(a, x)
    y.backward()
    rec("hook behind a None gradient", list(log))
    rec("w.grad behind a None gradient", w.grad)
    log.clear()
    w = B.value(1.0, requires_grad=True)
    w.register_hook(tag("w"))
    y = Stop.apply(w, x)
    y.backward()
    rec("leaf hook behind a None gradient", list(log))
    rec("leaf grad behind a None gradient", w.grad)
    w = B.value(2.0, requires_grad=True)
    seen = []
    w.register_hook(lambda g: seen.append(g))
    y = w * w + w
    y.backward()
    rec("hook's grad object vs w.grad values", (seen[0], w.grad))
