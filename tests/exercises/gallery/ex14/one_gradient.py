"""Wrong ex14: Clip's backward returns one gradient although forward took three arguments."""

from micrograph import Function, Value


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1.0 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (1.0 + (-x).exp())


class Clip(Function):
    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return Value(min(max(x.item(), low), high))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (1.0 if ctx.low <= x.item() <= ctx.high else 0.0)

# names: RuntimeError, Clip.backward returned
