"""Every kind of op consuming the outputs of a Function with several outputs sends each gradient to its own output: sum and mean of a list, clamp, maximum, where, a reduction of a 0-dim value, another Function, an in-place op on an output (which then is output 0 of its new node), and grad() with respect to an output."""


def run(B, rec):
    A = B.autograd
    got = []

    class Three(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x * x, -x

        @staticmethod
        def backward(ctx, g0, g1, g2):
            got.append((g0, g1, g2))
            (x,) = ctx.saved_tensors
            return g0 * 2 + g1 * 2 * x - g2

    class Pair(A.Function):
        @staticmethod
        def forward(ctx, u, v):
            return u * v

        @staticmethod
        def backward(ctx, g):
            return g * 10, g * 100

    for xv in (1.5, -0.25):
        x = B.value(xv, requires_grad=True)
        cases = {
            "sum": lambda a, b, c: B.sum([a, b, c, b]),
            "mean": lambda a, b, c: B.sum([a, c]) / 2,
            "clamp": lambda a, b, c: a.clamp(-1.0, 1.0) + c.clamp(min=0.0) * 3,
            "maximum": lambda a, b, c: B.maximum(a, b) + B.minimum(b, c) * 5,
            "where": lambda a, b, c: B.where(a > b, b, c),
            "0-dim sum": lambda a, b, c: b.sum() + c.mean() * 7,
            "function": lambda a, b, c: Pair.apply(c, a),
            "pow": lambda a, b, c: a ** b + c ** 2,
        }
        for name, f in cases.items():
            a, b, c = Three.apply(x)
            y = f(a, b, c)
            rec(f"{name} {xv}: value", y)
            if name != "sum":  # torch.stack(values).sum(): its SumBackward0 has one edge, to StackBackward0
                rec(f"{name} {xv}: next numbers", tuple(n for _, n in y.grad_fn.next_functions))
            x.grad = None
            y.backward()
            rec(f"{name} {xv}: received", got[-1])
            rec(f"{name} {xv}: x.grad", x.grad)

    x = B.value(2.0, requires_grad=True)
    a, b, c = Three.apply(x)
    b.mul_(3)
    rec("in place on output 1", (b.grad_fn, b.output_nr, b._version))
    rec("in place next", b.grad_fn.next_functions)
    rec("in place next numbers", tuple(n for _, n in b.grad_fn.next_functions))
    (b + c).backward()
    rec("in place received", got[-1])
    rec("in place x.grad", x.grad)

    a, b, c = Three.apply(x)
    y = a * b * c
    rec("grad wrt outputs", B.grad(y, (c, a), retain_graph=True))
    rec("grad wrt one output", B.grad(y, b))
