"""minitorch's autodiff tests on values of our own: Function1 (x + y + 10) and Function2 (x * y + x) as
custom Functions, the backprop tests (a chain, a variable used twice, a diamond) with ``d_output=5`` as
backward's gradient, the Functions given a Python number, and the scalar operators' derivatives
against central differences (gradcheck)."""


def run(B, rec):
    A = B.autograd

    class Function1(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y + 10

        @staticmethod
        def backward(ctx, d_output):
            return d_output, d_output

    class Function2(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y + x

        @staticmethod
        def backward(ctx, d_output):
            x, y = ctx.saved_tensors
            return d_output * (y + 1), d_output * x

    zero = B.value(0.0)
    var = B.value(1.5, requires_grad=True)
    Function1.apply(zero, var).backward(B.value(5.0))
    rec("backprop1", var.grad)
    var = B.value(1.5, requires_grad=True)
    Function1.apply(zero, Function1.apply(zero, var)).backward(B.value(5.0))
    rec("backprop2", var.grad)
    var1 = B.value(1.5, requires_grad=True)
    var4 = Function1.apply(Function1.apply(zero, var1), Function1.apply(zero, var1))
    var4.backward(B.value(5.0))
    rec("backprop3", var1.grad)
    var0 = B.value(1.5, requires_grad=True)
    var1 = Function1.apply(zero, var0)
    var4 = Function1.apply(Function1.apply(zero, var1), Function1.apply(zero, var1))
    var4.backward(B.value(5.0))
    rec("backprop4", var0.grad)
    rec("backprop4: node", var4.grad_fn)

    x, y = B.value(2.5, requires_grad=True), B.value(-1.0, requires_grad=True)
    out = Function2.apply(x, y)
    rec("Function2", (out, out.grad_fn))
    out.backward(B.value(5.0))
    rec("Function2 grads", (x.grad, y.grad))
    rec("Function2 twice", lambda: out.backward(B.value(5.0)))
    rec("Function1 given a number", lambda: Function1.apply(0.0, B.value(1.5, requires_grad=True)).backward())
    rec("Function1 given a number: result", Function1.apply(0.0, B.value(1.5, requires_grad=True)))

    def leaf(v):
        return B.value(v, requires_grad=True)

    ops = {
        "add": lambda a, b: a + b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
        "sub": lambda a, b: a - b, "neg": lambda a, b: -a, "sigmoid": lambda a, b: a.sigmoid(),
        "relu": lambda a, b: (a * b).relu(), "log": lambda a, b: (a * a + 1).log(), "exp": lambda a, b: a.exp(),
        "inv": lambda a, b: 1.0 / (a * a + 0.5), "complex": lambda a, b: ((a * b + 2).sigmoid() + (b - a).exp()) / (a * a + 1),
    }
    for name, f in ops.items():
        rec(f"gradcheck {name}", A.gradcheck(f, (leaf(0.7), leaf(-1.3))))
        a, b = leaf(0.7), leaf(-1.3)
        f(a, b).backward()
        rec(f"{name}: grads", (a.grad, b.grad))
