"""A custom Function whose backward is @once_differentiable (the torch.autograd.Function docs), asked for a
second derivative when the gradient it receives requires grad, on values of our own: its results hang from
torch's ``Error`` node, whose edges go to fresh leaves, and differentiating through it raises; a gradient
that does not require grad gives a plain result, as in program 189."""


def run(B, rec):
    A = B.autograd
    once = A.function.once_differentiable

    class Sin(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        @once
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos()

    class Scaled(A.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_backward(x, y)
            return x * y * k

        @staticmethod
        @once
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y * 2, None, None

    for v in (0.35, -1.1):
        x = B.value(v, requires_grad=True)
        w = B.value(0.5, requires_grad=True)
        (g,) = B.grad(Sin.apply(x), x, w, create_graph=True)
        rec(f"{v}: g", (g, g.requires_grad, g.is_leaf, g.grad_fn, g.grad_fn.next_functions))
        acc = g.grad_fn.next_functions[0][0]
        rec(f"{v}: the fresh leaf", (acc.variable, acc.variable.is_leaf, acc.variable.requires_grad, acc.variable.grad))
        rec(f"{v}: g.backward()", lambda: g.backward(retain_graph=True))
        rec(f"{v}: grad(g, x)", lambda: B.grad(g, x, retain_graph=True))
        rec(f"{v}: grad(g, [x, w], allow_unused)", lambda: B.grad(g, [x, w], allow_unused=True, retain_graph=True))
        rec(f"{v}: grad(g, the fresh leaf)", lambda: B.grad(g, acc.variable))
        y = Sin.apply(x) * x
        y.backward(create_graph=True)
        rec(f"{v}: x.grad", (x.grad, x.grad.grad_fn, x.grad.grad_fn.next_functions))
        rec(f"{v}: x.grad.backward()", lambda: x.grad.backward())
        rec(f"{v}: x.grad after", x.grad)
        rec(f"{v}: gradgradcheck", lambda: A.gradgradcheck(Sin.apply, (x,)))
        rec(f"{v}: gradgradcheck given a plain grad_output", lambda: A.gradgradcheck(Sin.apply, (x,), (B.value(0.3),)))
        z = Scaled.apply(x, w, 3.0)
        gx, gw = B.grad(z, (x, w), w * 2, create_graph=True, allow_unused=True)
        rec(f"{v}: None among the results", (gx, gw, gx.grad_fn, gx.grad_fn.next_functions))
        rec(f"{v}: through it again", lambda: gx.backward())
        (g2,) = B.grad(Sin.apply(x), x, B.value(1.5), create_graph=True)
        rec(f"{v}: a plain grad_output", (g2, g2.requires_grad, g2.grad_fn))
