"""Function: saved tensors through the node, wrong gradient counts and types, a forward returning a number or its input, ctx notes, grad mode inside forward/backward, instantiating the class."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    class Mul2(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            ctx.k = 3
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    w = B.value(1.5, requires_grad=True)
    x = B.value(-2.0, requires_grad=True)
    out = Mul2.apply(w, x)
    rec("out", out)
    rec("grad_fn", out.grad_fn)
    rec("grad_fn name", out.grad_fn.name())
    rec("next", [n for n, _ in out.grad_fn.next_functions])
    rec("next idx", [i for _, i in out.grad_fn.next_functions])
    rec("saved_tensors via node", lambda: out.grad_fn.saved_tensors)
    rec("ctx attr via node", lambda: out.grad_fn.k)
    rec("needs_input_grad", lambda: out.grad_fn.needs_input_grad)
    out.backward(retain_graph=True)
    rec("grads", (w.grad, x.grad))
    rec("saved after retain", lambda: out.grad_fn.saved_tensors)
    out.backward()
    rec("grads2", (w.grad, x.grad))
    rec("saved after free", lambda: out.grad_fn.saved_tensors)
    rec("second backward", lambda: out.backward())
    rec("apply with float", lambda: Mul2.apply(w, 2.0))
    rec("apply with const", lambda: Mul2.apply(B.value(2.0), B.value(3.0)))
    c = Mul2.apply(B.value(2.0), B.value(3.0))
    rec("const result", (c.requires_grad, c.grad_fn, c.is_leaf))
    rec("direct call", lambda: Mul2()(w, x))
    rec("forward directly", lambda: Mul2.forward(None, w, x))
    with B.no_grad():
        n = Mul2.apply(w, x)
    rec("under no_grad", (n.requires_grad, n.grad_fn))

    class BadCount(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    rec("backward too few", lambda: BadCount.apply(w, x).backward())

    class TooMany(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g, g

    rec("backward too many", lambda: TooMany.apply(w).backward())

    class TooManyNone(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, None

    w.grad = None
    rec("backward extra None", lambda: TooManyNone.apply(w).backward())
    rec("w.grad extra None", w.grad)

    class RetFloat(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 2.0

    rec("backward returns float", lambda: RetFloat.apply(w).backward())

    class FwdFloat(A.Function):
        @staticmethod
        def forward(ctx, x):
            return 2.0

        @staticmethod
        def backward(ctx, g):
            return g

    rec("forward returns float", lambda: FwdFloat.apply(w))

    class FwdInput(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    w.grad = None
    o = FwdInput.apply(w)
    rec("forward returns input: is", o is w)
    rec("forward returns input: grad_fn", o.grad_fn)
    rec("forward returns input: is_leaf", o.is_leaf)
    o.backward()
    rec("forward returns input: w.grad", w.grad)

    class SaveOut(A.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    w.grad = None
    o = SaveOut.apply(w)
    rec("save output: value", o)
    o.backward()
    rec("save output: grad", w.grad)
    o = SaveOut.apply(w)
    o.mul_(2)
    rec("save output modified", lambda: o.backward())

    class SaveInput(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3

    a = w * 1
    o = SaveInput.apply(a)
    a.add_(1)
    rec("save input modified", lambda: o.backward())

    class SaveNonTensor(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, None)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            x, n = ctx.saved_tensors
            return g * 3 if n is None else g

    rec("save None", lambda: SaveNonTensor.apply(w).backward())

    class SaveFloat(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 2.0)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g

    rec("save float", lambda: SaveFloat.apply(w))

    class NoGradIn(A.Function):
        @staticmethod
        def forward(ctx, x):
            rec("grad enabled in forward", B.is_grad_enabled())
            y = x * 2
            rec("forward result requires grad inside", y.requires_grad)
            return y

        @staticmethod
        def backward(ctx, g):
            rec("grad enabled in backward", B.is_grad_enabled())
            return g * 2

    NoGradIn.apply(w).backward()

    class CG(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            rec("cg: grad enabled in backward", B.is_grad_enabled())
            return g * 2 * x

    w = B.value(1.5, requires_grad=True)
    (g,) = B.grad(CG.apply(w), w, create_graph=True)
    rec("cg g", g)
    rec("cg g.grad_fn", g.grad_fn)
    (gg,) = B.grad(g, w)
    rec("cg gg", gg)

    class TupleOut(A.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    w = B.value(1.5, requires_grad=True)
    TupleOut.apply(w, 4).backward()
    rec("non-tensor arg: w.grad", w.grad)
    rec("non-tensor arg grad not None", lambda: None)

    class NonNoneForNonTensor(A.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 4, g

    rec("grad for non-tensor", lambda: NonNoneForNonTensor.apply(w, 4).backward())

    class NoBackward(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    rec("no backward defined", lambda: NoBackward.apply(w).backward())

    class NoForward(A.Function):
        @staticmethod
        def backward(ctx, g):
            return g

    rec("no forward defined", lambda: NoForward.apply(w))
