"""A custom Function written as the tutorials and docs show it, on values of our own, with the slips
a student makes: saved_tensors read twice or after backward, save_for_backward of a non-tensor,
backward returning too many or too few gradients, a wrong-typed gradient, calling forward directly,
instantiating the Function, mark_dirty without in-place change, mark_non_differentiable outputs,
set_materialize_grads, needs_input_grad, and once_differentiable."""


def run(B, rec):
    F = B.autograd.Function

    class Cube(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    x = B.value(-0.6, requires_grad=True)
    y = Cube.apply(x)
    rec("Cube value", y)
    rec("Cube grad_fn", y.grad_fn)
    rec("Cube grad_fn name", y.grad_fn.name())
    rec("Cube next_functions", y.grad_fn.next_functions)
    rec("saved_tensors from the node", y.grad_fn.saved_tensors)
    y.backward(retain_graph=True)
    rec("x.grad", x.grad)
    y.backward()
    rec("x.grad twice", x.grad)
    rec("saved_tensors after free", lambda: y.grad_fn.saved_tensors)
    rec("third backward", lambda: y.backward())
    rec("Cube() instance", lambda: Cube())
    rec("Cube.forward direct", lambda: Cube.forward(None, x))
    rec("Cube()(x)", lambda: Cube()(x))

    class TooMany(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    rec("too many grads", lambda: TooMany.apply(x).backward())

    class Two(F):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    w = B.value(1.75, requires_grad=True)
    rec("too few grads", lambda: Two.apply(x, w).backward())

    class NumberGrad(F):
        @staticmethod
        def forward(ctx, x):
            return x + 1

        @staticmethod
        def backward(ctx, g):
            return 2.0

    rec("float gradient", lambda: NumberGrad.apply(x).backward())

    class SaveNumber(F):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x, k)
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    rec("save_for_backward(number)", lambda: SaveNumber.apply(x, 2.5))

    class NoneGradForInput(F):
        @staticmethod
        def forward(ctx, a, k):
            ctx.k = k
            ctx.mark_non_differentiable
            return a * k

        @staticmethod
        def backward(ctx, g):
            rec("needs_input_grad", ctx.needs_input_grad)
            return g * ctx.k, None

    x.grad = None
    NoneGradForInput.apply(x, 0.5).backward()
    rec("x.grad with a number input", x.grad)

    class Dirty(F):
        @staticmethod
        def forward(ctx, a):
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g

    rec("mark_dirty on a leaf", lambda: Dirty.apply(x))
    h = x * 1.0
    rec("mark_dirty without change", lambda: Dirty.apply(h))

    class Sign(F):
        @staticmethod
        def forward(ctx, a):
            out = a * 0.0 + (1.0 if a.item() > 0 else -1.0)
            ctx.mark_non_differentiable(out)
            return out

        @staticmethod
        def backward(ctx, g):
            return g * 0

    s = Sign.apply(x)
    rec("mark_non_differentiable out", (s, s.requires_grad, s.grad_fn, s.is_leaf))
    rec("backward of it", lambda: s.backward())

    class Mat(F):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 1.0, a * 2.0

        @staticmethod
        def backward(ctx, g1, g2):
            rec("unmaterialized grads", (g1, g2))
            return g1 if g2 is None else g2

    x.grad = None
    p, q = Mat.apply(x)
    p.backward()
    rec("x.grad via first output", x.grad)

    class Mat2(F):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0, a * 2.0

        @staticmethod
        def backward(ctx, g1, g2):
            rec("materialized grads", (g1, g2))
            return g1 + g2

    p, q = Mat2.apply(x)
    q.backward()
    rec("x.grad via second output", x.grad)
