"""Function ctx: mark_non_differentiable, mark_dirty, set_materialize_grads, once_differentiable."""


def run(B, rec):
    A = B.autograd

    class Sign(A.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 0.0 + (1.0 if x.item() > 0 else -1.0)  # the sign, without bool arithmetic
            ctx.mark_non_differentiable(out)
            return out

        @staticmethod
        def backward(ctx, g):
            return g * 0

    for v in (2.5, -1.0):
        w = B.value(v, requires_grad=True)
        s = Sign.apply(w)
        rec(f"non-differentiable output at {v}", s)
        rec(f"non-differentiable: requires_grad at {v}", s.requires_grad)
        rec(f"non-differentiable: grad_fn at {v}", s.grad_fn)
        rec(f"non-differentiable: backward at {v}", lambda: s.backward())
        rec(f"non-differentiable times w at {v}", (s * w).grad_fn)

    class AddOneInPlace(A.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    w = B.value(2.0, requires_grad=True)
    rec("mark_dirty on a leaf", lambda: AddOneInPlace.apply(w))
    a = w * 3
    v0 = a._version
    out = AddOneInPlace.apply(a)
    rec("mark_dirty: output is the input", out is a)
    rec("mark_dirty: value", a)
    rec("mark_dirty: grad_fn", a.grad_fn)
    rec("mark_dirty: version change", a._version - v0)
    (a * 2).backward()
    rec("mark_dirty: w.grad", w.grad)

    class Square(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return None if g is None else g * 2 * x

    w = B.value(1.5, requires_grad=True)
    Square.apply(w).backward()
    rec("set_materialize_grads(False): w.grad", w.grad)

    class Cube(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        @A.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x * x

    w = B.value(2.0, requires_grad=True)
    y = Cube.apply(w)
    y.backward()
    rec("once_differentiable: w.grad", w.grad)
    w = B.value(2.0, requires_grad=True)
    (g,) = B.grad(Cube.apply(w), w, create_graph=True)
    rec("once_differentiable under create_graph", g)
    rec("once_differentiable grad requires grad", g.requires_grad)
    rec("once_differentiable grad node", g.grad_fn)
    rec("differentiate it again", lambda: B.grad(g, w))
    w = B.value(2.0)
    with B.no_grad():
        rec("once_differentiable under no_grad", Cube.apply(B.value(2.0, requires_grad=True)).requires_grad)
