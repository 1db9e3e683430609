"""gradcheck/gradgradcheck with torch's keyword options, failures with and without raise_exception, once_differentiable."""

from parity.helpers import echo, saving_square


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    def f1(a):
        return a * a * a
    w = B.value(0.5, requires_grad=True)
    x = B.value(-1.0, requires_grad=True)
    rec("gc ok", lambda: A.gradcheck(f1, (w,)))
    rec("gc single", lambda: A.gradcheck(f1, w))
    rec("gc list", lambda: A.gradcheck(lambda a, b: a * b, [w, x]))
    rec("gc no rg", lambda: A.gradcheck(f1, (B.value(1.0),)))
    rec("gc eps", lambda: A.gradcheck(f1, (w,), eps=1e-3, atol=1e-2))
    rec("gc eps strict", lambda: A.gradcheck(f1, (w,), eps=1e-1, atol=1e-9, rtol=1e-9))
    rec("gc eps strict noraise", lambda: A.gradcheck(f1, (w,), eps=1e-1, atol=1e-9, rtol=1e-9, raise_exception=False))

    Bad = saving_square(A, "Bad", lambda a, g: g * a)  # half the derivative: gradcheck must fail

    rec("gc bad", lambda: A.gradcheck(Bad.apply, (w,)))
    rec("gc bad noraise", lambda: A.gradcheck(Bad.apply, (w,), raise_exception=False))
    rec("gc bad two in", lambda: A.gradcheck(lambda a, b: Bad.apply(a) * b, (w, x)))
    rec("ggc ok", lambda: A.gradgradcheck(f1, (w,)))
    rec("ggc bad", lambda: A.gradgradcheck(Bad.apply, (w,)))
    rec("ggc bad noraise", lambda: A.gradgradcheck(Bad.apply, (w,), raise_exception=False))
    rec("ggc grad_outputs", lambda: A.gradgradcheck(f1, (w,), (B.value(2.0),)))

    class Once(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        @A.function.once_differentiable
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a

    rec("gc once", lambda: A.gradcheck(Once.apply, (w,)))
    rec("ggc once", lambda: A.gradgradcheck(Once.apply, (w,)))
    rec("once cg", lambda: B.grad(Once.apply(w), w, create_graph=True))
    r = B.grad(Once.apply(w), w, create_graph=True)[0]
    rec("once cg grad_fn", r.grad_fn)
    rec("once cg backward", lambda: r.backward())
    rec("gc returns tuple", lambda: A.gradcheck(lambda a: (a * 2, a * 3), (w,)))
    rec("gc returns float", lambda: A.gradcheck(lambda a: 2.0, (w,)))
    rec("gc non-differentiable point", lambda: A.gradcheck(lambda a: a.abs(), (B.value(0.0, requires_grad=True),)))
    rec("gc relu at 0", lambda: A.gradcheck(lambda a: a.relu(), (B.value(0.0, requires_grad=True),)))
    rec("gc nondet", lambda: A.gradcheck(f1, (w,), nondet_tol=1e-5))
    rec("gc check_undefined", lambda: A.gradcheck(f1, (w,), check_undefined_grad=False))
    rec("gc fast mode", lambda: A.gradcheck(f1, (w,), fast_mode=True))
    rec("gc positional eps", lambda: A.gradcheck(f1, (w,), 1e-6, 1e-5, 1e-3, True))
    rec("gc bad kw", lambda: A.gradcheck(f1, (w,), foo=1))
