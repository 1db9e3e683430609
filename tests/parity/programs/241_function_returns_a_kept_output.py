"""A Function whose forward returns a Value it made in an earlier call (an output cached by the
input's number) hands back that very object: its grad_fn becomes the later call's node, so a
backward from the first result reaches the later input.  An input returned as it is comes back
as a new Value on the input's storage, as before."""


def run(B, rec):
    A = B.autograd
    kept = {}

    class Cached(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            if x.item() not in kept:
                kept[x.item()] = x * 3
            return kept[x.item()]

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3

    class Same(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    a, b = B.value(0.5, requires_grad=True), B.value(0.5, requires_grad=True)
    y1 = Cached.apply(a)
    first = y1.grad_fn
    y2 = Cached.apply(b)
    rec("same object", y1 is y2)
    rec("first node kept", y1.grad_fn is first)
    rec("later node", y1.grad_fn is y2.grad_fn)
    y1.backward()
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    x = B.value(1.25, requires_grad=True)
    out = Same.apply(x)
    rec("input returned: same object", out is x)
    rec("input returned: grad_fn", out.grad_fn)
    rec("x still a leaf", (x.is_leaf, x.grad_fn))
