"""Wrong ex14: keeps x as ctx.x instead of save_for_backward: right numbers, but nothing is freed
by backward and an in-place change of x goes unnoticed."""

from micrograph import Function, Value


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return (x.exp() + 1.0).log()

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.x.sigmoid()


class Clip(Function):
    @staticmethod
    def forward(ctx, x, low, high):
        ctx.x, ctx.low, ctx.high = x, low, high
        return Value(min(max(x.item(), low), high))

    @staticmethod
    def backward(ctx, grad):
        inside = ctx.low <= ctx.x.item() <= ctx.high
        return grad * (1.0 if inside else 0.0), None, None

# names: save_for_backward
