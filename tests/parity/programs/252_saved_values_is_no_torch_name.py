"""``ctx.saved_values``, a name torch 2.13 never had (a custom Function's saved values are its
``saved_tensors``): read on the node, or in backward, it raises AttributeError naming the node's class,
and a backward that reads it writes no gradient."""


def run(B, rec):
    class Square(B.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_values
            return 2 * a * g

    w = B.value(3.0, requires_grad=True)
    y = Square.apply(w)
    rec("saved_values on the node", lambda: y.grad_fn.saved_values)
    rec("hasattr saved_values", hasattr(y.grad_fn, "saved_values"))
    rec("saved_tensors on the node", y.grad_fn.saved_tensors)
    rec("backward reading saved_values", lambda: y.backward())
    rec("w.grad after it", w.grad)
