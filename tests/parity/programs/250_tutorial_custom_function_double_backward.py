"""PyTorch's tutorial "Double Backward with Custom Functions" and the "Extending PyTorch" notes' set_materialize_grads
example, on one-element values of our own: Square saving its input, Exp saving its output, Sinh saving intermediate
results as extra outputs (and the tutorial's wrong version keeping them on ctx, whose second derivative gradgradcheck
refuses), Cube whose backward is another Function (CubeBackward), and SimpleFunc whose once_differentiable backward
gets None for an output no gradient reached: gradcheck, gradgradcheck, the derivative under create_graph and its node,
the second derivative."""

from parity.helpers import attempt


def define(B):
    A = B.autograd

    class Square(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return grad_out * 2 * x

    class Exp(A.Function):
        @staticmethod
        def forward(ctx, x):
            result = B.exp(x)
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_out):
            (result,) = ctx.saved_tensors
            return result * grad_out

    class Sinh(A.Function):
        @staticmethod
        def forward(ctx, x):
            expx, expnegx = B.exp(x), B.exp(-x)
            ctx.save_for_backward(expx, expnegx)
            return (expx - expnegx) / 2, expx, expnegx

        @staticmethod
        def backward(ctx, grad_out, grad_out_exp, grad_out_negexp):
            expx, expnegx = ctx.saved_tensors
            grad_input = grad_out * (expx + expnegx) / 2
            grad_input += grad_out_exp * expx
            grad_input -= grad_out_negexp * expnegx
            return grad_input

    class SinhBad(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.expx, ctx.expnegx = B.exp(x), B.exp(-x)
            return (ctx.expx - ctx.expnegx) / 2

        @staticmethod
        def backward(ctx, grad_out):
            return grad_out * (ctx.expx + ctx.expnegx) / 2

    class Cube(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return CubeBackward.apply(grad_out, x)

    class CubeBackward(A.Function):
        @staticmethod
        def forward(ctx, grad_out, x):
            ctx.save_for_backward(x, grad_out)
            return grad_out * 3 * x ** 2

        @staticmethod
        def backward(ctx, grad_out):
            x, saved_grad_out = ctx.saved_tensors
            return grad_out * 3 * x ** 2, grad_out * saved_grad_out * 6 * x

    return {"Square": Square.apply, "Exp": Exp.apply, "sinh": lambda x: Sinh.apply(x)[0], "SinhBad": SinhBad.apply,
            "Cube": Cube.apply}


def simple_func(B):
    class SimpleFunc(B.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(x)
            return x.clone(), x.clone()

        @staticmethod
        @B.autograd.function.once_differentiable
        def backward(ctx, g1, g2):
            (x,) = ctx.saved_tensors
            grad_input = B.zeros_like(x)
            if g1 is not None:
                grad_input += g1
            if g2 is not None:
                grad_input += g2
            return grad_input

    return SimpleFunc


def run(B, rec):
    for name, f in define(B).items():
        x = B.value(0.7, requires_grad=True)
        rec(f"{name}: gradcheck", attempt(lambda: B.autograd.gradcheck(f, x)))
        rec(f"{name}: gradgradcheck", attempt(lambda: B.autograd.gradgradcheck(f, x)))
        y = f(x)
        g, = B.grad(y, x, create_graph=True)
        rec(f"{name}: y, dy/dx and its node", (y, y.grad_fn, g, g.grad_fn))
        rec(f"{name}: second derivative", attempt(lambda: B.grad(g, x, allow_unused=True)))
    SimpleFunc = simple_func(B)
    a = B.value(1.0, requires_grad=True)
    b, _ = SimpleFunc.apply(a)
    b.backward()
    rec("SimpleFunc: backward of the first output", a.grad)
    a = B.value(1.0, requires_grad=True)
    b, c = SimpleFunc.apply(a)
    (b + c).backward(retain_graph=True)
    rec("SimpleFunc: backward of both", a.grad)
    g, = B.grad(b, a, create_graph=True)
    rec("SimpleFunc: create_graph through once_differentiable", (g, g.requires_grad, g.grad_fn))
    rec("SimpleFunc: its backward", lambda: g.backward())
