"""Wrong ex14: Softplus's backward uses exp(x) instead of sigmoid(x); Clip passes the gradient
everywhere."""

from micrograph import Function, Value


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x.exp() + 1.0).log()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.exp()


class Clip(Function):
    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x)
        return Value(min(max(x.item(), low), high))

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors
        return grad, None, None

# names: x.grad, number differs
