"""gradcheck and gradgradcheck (the torch.autograd docs) on functions some of whose outputs do not require
grad, on values of our own: only the outputs that require grad are compared ("output j" counts those); with
none, every numerical derivative must be zero; gradgradcheck of such a function calls it with no arguments,
as torch's slicing does."""


def run(B, rec):
    A = B.autograd

    class Half(A.Function):  # a wrong backward: x instead of 2x
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    for v in (0.45, -1.7):
        x = B.value(v, requires_grad=True)
        rec(f"{v}: detached output", lambda: A.gradcheck(lambda a: a.detach() * 2, (x,)))
        rec(f"{v}: detached output, no raise", lambda: A.gradcheck(lambda a: a.detach() * 2, (x,), raise_exception=False))
        rec(f"{v}: detached output, fast mode", lambda: A.gradcheck(lambda a: a.detach() * 2, (x,), fast_mode=True))
        rec(f"{v}: constant output", lambda: A.gradcheck(lambda a: a.detach() * 0 + 3, (x,)))
        rec(f"{v}: output under no_grad", lambda: A.gradcheck(lambda a: B.no_grad()(lambda: a.exp())(), (x,)))
        rec(f"{v}: detached then right", lambda: A.gradcheck(lambda a: (a.detach() * 2, a ** 3), (x,)))
        rec(f"{v}: detached then wrong", lambda: A.gradcheck(lambda a: (a.detach() * 2, Half.apply(a)), (x,)))
        rec(f"{v}: right then wrong", lambda: A.gradcheck(lambda a: (a.sin(), a.detach(), Half.apply(a)), (x,)))
        rec(f"{v}: wrong wrt the second input", lambda: A.gradcheck(
            lambda a, b: (b.detach(), a * Half.apply(b)), (x, B.value(0.8, requires_grad=True))))
        rec(f"{v}: gradgradcheck, detached output", lambda: A.gradgradcheck(lambda a: a.detach() * 2, (x,)))
        rec(f"{v}: gradgradcheck, linear", lambda: A.gradgradcheck(lambda a: a * 2, (x,)))
        rec(f"{v}: gradgradcheck, wrong", lambda: A.gradgradcheck(Half.apply, (x,)))
