"""What a custom Function's backward may return per input: a number where the input was a number
(the not-a-Variable error, checked before the type), a number where it was a Value, a Value, None."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd
    w = B.value(-0.75, requires_grad=True)

    def function(grads):
        class Scale(A.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, g):
                return grads(g)
        return Scale

    rec("number for the number input", lambda: function(lambda g: (g, 0.0)).apply(w, 4.0).backward())
    rec("Value for the number input", lambda: function(lambda g: (g, g)).apply(w, 4.0).backward())
    rec("number for the Value input", lambda: function(lambda g: (2.5, None)).apply(w, 4.0).backward())
    rec("int for the Value input", lambda: function(lambda g: (3, None)).apply(w, 4.0).backward())
    rec("w.grad before", w.grad)
    function(lambda g: (g * 4.0, None)).apply(w, 4.0).backward()
    rec("w.grad after a Value", w.grad)
