"""The ``Function.forward`` docstring's second usage (a ``forward`` without ctx and a separate
``setup_context(ctx, inputs, output)``) and the "Extending torch.autograd" examples written that
way, on one-element values of our own: MulConstant (a non-tensor argument whose gradient is None),
a linear function ``x * w + b`` saving its inputs, MyCube saving a non-differentiable ``dx`` for a
double backward, and what torch says when ``setup_context`` is missing."""


def run(B, rec):
    A = B.autograd

    class MulConstant(A.Function):
        @staticmethod
        def forward(tensor, constant):
            return tensor * constant

        @staticmethod
        def setup_context(ctx, inputs, output):
            tensor, constant = inputs
            ctx.constant = constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    for x, k in ((1.5, 3.0), (-0.25, -2.0)):
        w = B.value(x, requires_grad=True)
        y = MulConstant.apply(w, k)
        rec(f"MulConstant({x}, {k})", (y, y.grad_fn, y.is_leaf))
        y.backward()
        rec(f"MulConstant({x}, {k}): w.grad", w.grad)
    w = B.value(0.5, requires_grad=True)
    rec("MulConstant, constant by keyword", lambda: MulConstant.apply(w, constant=4.0))

    class LinearFunction(A.Function):
        @staticmethod
        def forward(input, weight, bias):
            return input * weight + bias

        @staticmethod
        def setup_context(ctx, inputs, output):
            input, weight, bias = inputs
            ctx.save_for_backward(input, weight, bias)

        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output * weight
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output * input
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output
            return grad_input, grad_weight, grad_bias

    x = B.value(0.75)
    wt = B.value(-1.25, requires_grad=True)
    bias = B.value(0.5, requires_grad=True)
    out = LinearFunction.apply(x, wt, bias)
    rec("LinearFunction", (out, out.grad_fn))
    (out * out).backward()
    rec("LinearFunction: grads", (x.grad, wt.grad, bias.grad))
    rec("LinearFunction: gradcheck",
        A.gradcheck(LinearFunction.apply, (B.value(0.3, requires_grad=True), B.value(-0.7, requires_grad=True),
                                           B.value(0.2, requires_grad=True))))

    class MyCube(A.Function):
        @staticmethod
        def forward(x):
            result = x ** 3
            dx = 3 * x ** 2
            return result, dx

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            result, dx = output
            ctx.save_for_backward(x, dx)
            ctx.mark_non_differentiable(dx)

        @staticmethod
        def backward(ctx, grad_output, grad_dx):
            x, dx = ctx.saved_tensors
            return grad_output * dx + grad_dx * 6 * x

    def my_cube(x):
        result, dx = MyCube.apply(x)
        return result

    w = B.value(1.5, requires_grad=True)
    result, dx = MyCube.apply(w)
    rec("MyCube outputs", (result, result.grad_fn, dx, dx.requires_grad, dx.grad_fn))
    (g,) = B.grad(my_cube(w), w, create_graph=True)
    rec("MyCube: first derivative", (g, g.requires_grad))
    rec("MyCube: second derivative (dx carries no graph)", lambda: B.grad(g, w))
    rec("MyCube: gradcheck", A.gradcheck(my_cube, (B.value(-0.6, requires_grad=True),)))
    rec("MyCube: gradgradcheck (dx is not differentiable)",
        lambda: A.gradgradcheck(my_cube, (B.value(-0.6, requires_grad=True),)))

    class NoSetup(A.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    rec("forward without ctx and no setup_context", lambda: NoSetup.apply(B.value(1.0, requires_grad=True)))

    class GradModeSeen(A.Function):
        @staticmethod
        def forward(x):
            seen.append(("forward", B.is_grad_enabled()))
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(("setup_context", B.is_grad_enabled(), output.requires_grad))

        @staticmethod
        def backward(ctx, g):
            return g * 2

    seen = []
    y = GradModeSeen.apply(B.value(1.0, requires_grad=True))
    rec("grad mode in forward and setup_context", [str(s) for s in seen])
    rec("its result", (y, y.grad_fn))

    # the same Function written with ctx: the saved non-differentiable output, changed in place
    class CubeCtx(A.Function):
        @staticmethod
        def forward(ctx, x):
            result, dx = x ** 3, 3 * x ** 2
            ctx.save_for_backward(x, dx)
            ctx.mark_non_differentiable(dx)
            return result, dx

        @staticmethod
        def backward(ctx, grad_output, grad_dx):
            x, dx = ctx.saved_tensors
            seen.append((dx.requires_grad, dx.grad_fn is None))
            return grad_output * dx + grad_dx * 6 * x

    seen = []
    w = B.value(-0.8, requires_grad=True)
    result, dx = CubeCtx.apply(w)
    (g,) = B.grad(result, w, create_graph=True)
    rec("with ctx: first derivative, dx as backward saw it", (g, [str(s) for s in seen]))
    rec("with ctx: second derivative", B.grad(g, w))
    result, dx = CubeCtx.apply(w)
    dx.mul_(2)
    rec("dx changed in place, then backward", lambda: result.backward())
    result, dx = CubeCtx.apply(w)
    rec("dx's own version, then backward of dx * 2", lambda: (dx * 2).backward())
