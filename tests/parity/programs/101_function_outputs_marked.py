"""Several outputs of a Function, marked or unusual: mark_non_differentiable on one or all, set_materialize_grads(False), numbers and None among the outputs, an input returned, mark_dirty with a second output, no input requiring grad, no_grad, a saved output changed in place (its output number in the error), double backward through it."""


def run(B, rec0):
    def rec(k, v):
        r = rec0(k, v)
        if callable(v) and not hasattr(v, "item") and not hasattr(v, "next_functions") and r is not None:
            rec0(k + " =", r)
        return r
    A = B.autograd
    got = []
    x = B.value(1.5, requires_grad=True)

    class Mixed(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, None, x * 3

        @staticmethod
        def backward(ctx, *gs):
            got.append(gs)
            return gs[0] * 2 + gs[3] * 3

    o = Mixed.apply(x)
    rec("mixed outputs", o)
    rec("mixed output_nr", (o[0].output_nr, o[3].output_nr))
    o[3].backward()
    rec("mixed received", got[-1])
    rec("mixed x.grad", x.grad)

    class NonDiff(A.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            got.append((ga, gb))
            return ga * 2

    a, b = NonDiff.apply(x)
    rec("non-diff flags", (a.requires_grad, b.requires_grad, b.grad_fn, b.is_leaf, a.output_nr, b.output_nr))
    rec("non-diff a*b next", (a * b).grad_fn.next_functions)
    a.backward()
    rec("non-diff received", got[-1])
    rec("non-diff b.backward", lambda: b.backward())
    a, b = NonDiff.apply(x)
    rec("non-diff b*a grad", B.grad(b * a, x))
    rec("non-diff received 2", got[-1])

    class AllNonDiff(A.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(a, b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            return ga

    a, b = AllNonDiff.apply(x)
    rec("all non-diff", (a.requires_grad, a.grad_fn, b.grad_fn))

    class Lazy(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            got.append((ga, gb))
            if ga is None:
                return gb * 3
            return ga * 2 if gb is None else ga * 2 + gb * 3

    a, b = Lazy.apply(x)
    b.backward()
    rec("lazy b received", got[-1])
    a, b = Lazy.apply(x)
    a.backward()
    rec("lazy a received", got[-1])
    a, b = Lazy.apply(x)
    (a + b).backward()
    rec("lazy a+b received", got[-1])
    rec("lazy x.grad", x.grad)

    class Ident(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x, x * 2

        @staticmethod
        def backward(ctx, ga, gb):
            return ga + gb * 2

    y = x * 1
    a, b = Ident.apply(y)
    rec("input returned", (a is y, a.grad_fn, a.output_nr, b.output_nr, a.item()))
    rec("input returned grad", B.grad(a + b, x))

    class DirtyTwo(A.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * 2 + gb * 6

    y = x * 1
    a, b = DirtyTwo.apply(y)
    rec("dirty", (a is y, y.grad_fn, y._version, a.output_nr, b.output_nr, a.item(), b.item()))
    rec("dirty grad", B.grad(a * b, x))
    rec("dirty leaf", lambda: DirtyTwo.apply(B.value(1.0, requires_grad=True)))

    plain = B.value(2.0)
    a, b = Lazy.apply(plain)
    rec("no input requires grad", (a.requires_grad, a.grad_fn, b.grad_fn))
    with B.no_grad():
        a, b = Lazy.apply(x)
    rec("under no_grad", (a.requires_grad, a.grad_fn))

    class SavesOut(A.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x.exp(), x * 3
            ctx.save_for_backward(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            (b,) = ctx.saved_tensors
            got.append((b.grad_fn, b.output_nr, b))
            return ga * b + gb

    a, b = SavesOut.apply(x)
    (a * b).backward()
    rec("saved output in backward", got[-1])
    a, b = SavesOut.apply(x)
    b.mul_(2)
    rec("saved output changed in place", lambda: a.backward())
    a, b = SavesOut.apply(x)
    a.mul_(2)
    rec("other output changed in place", lambda: b.backward())

    class Square2(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x, x * x * x

        @staticmethod
        def backward(ctx, ga, gb):
            (x,) = ctx.saved_tensors
            return ga * 2 * x + gb * 3 * x * x

    for v in (0.5, -2.0):
        w = B.value(v, requires_grad=True)
        a, b = Square2.apply(w)
        (g,) = B.grad(a + b, w, create_graph=True)
        rec(f"create_graph first {v}", g)
        rec(f"create_graph grad_fn {v}", g.grad_fn)
        rec(f"second derivative {v}", B.grad(g, w))
