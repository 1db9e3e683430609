"""A custom Function whose backward is marked @once_differentiable, on values of our own: its first
derivative as usual, and what happens when a student asks for a second one (create_graph)."""


def run(B, rec):
    A = B.autograd
    once = A.function.once_differentiable

    class Softplus(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x.exp() + 1).log()

        @staticmethod
        @once
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.sigmoid()

    x = B.value(-0.8, requires_grad=True)
    y = Softplus.apply(x)
    rec("value", y)
    (g,) = B.grad(y, x, create_graph=True)
    rec("first derivative with create_graph", (g, g.requires_grad, g.grad_fn))
    rec("second derivative", lambda: B.grad(g, x))
    rec("g.backward()", lambda: g.backward())
    y = Softplus.apply(x)
    x.grad = None
    y.backward()
    rec("plain backward", x.grad)
    with B.no_grad():
        z = Softplus.apply(x)
    rec("under no_grad", (z, z.requires_grad, z.grad_fn))
