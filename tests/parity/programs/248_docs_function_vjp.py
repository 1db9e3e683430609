"""The ``torch.autograd`` docs' other name for a custom Function's ``backward``: ``vjp`` ("defining this function is
equivalent to defining the vjp function"). A Function that defines ``vjp`` alone backpropagates through it (under
``create_graph`` and ``once_differentiable`` too); one defining both is refused when backward reaches its node, not
when it is applied; one defining neither says so then."""

from parity.helpers import attempt


def run(B, rec):
    A = B.autograd

    class Square(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    class Both(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3

        @staticmethod
        def vjp(ctx, g):
            return g * 30

    class Neither(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

    class Once(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @A.function.once_differentiable
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    rec("Function.vjp is Function.backward", A.Function.vjp is A.Function.backward)
    rec("Square.vjp is Square.backward", Square.vjp is Square.backward)
    x = B.value(3.0, requires_grad=True)
    y = Square.apply(x)
    rec("vjp alone: y, node", (y, y.grad_fn))
    y.backward(retain_graph=True)
    rec("vjp alone: x.grad", x.grad)
    rec("vjp alone: grad()", B.grad(y, x, retain_graph=True))
    g, = B.grad(y, x, create_graph=True)
    rec("vjp alone, create_graph: dy/dx", (g, g.grad_fn))
    rec("vjp alone, create_graph: second derivative", B.grad(g, x))
    for name, fn in [("both", Both), ("neither", Neither), ("once_differentiable vjp", Once)]:
        w = B.value(2.0, requires_grad=True)
        out = attempt(lambda: fn.apply(w))
        rec(f"{name}: apply", out)
        rec(f"{name}: backward", attempt(lambda: out.backward(retain_graph=True) or "ok"))
        rec(f"{name}: w.grad", w.grad)
        rec(f"{name}: grad(create_graph=True)", attempt(lambda: B.grad(out, w, create_graph=True)))
