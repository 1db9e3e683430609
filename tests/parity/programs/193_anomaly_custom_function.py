"""Anomaly detection as the docs show it, with a custom Function whose backward returns nan, on values of
our own: the error names the Function's node, the warning says where it was made; outside anomaly mode
the nan goes through silently; a nan in forward is not checked."""


def run(B, rec):
    A = B.autograd

    class MyFunc(A.Function):
        @staticmethod
        def forward(ctx, inp):
            return inp.clone()

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = B.value(1.3, requires_grad=True)
    out = MyFunc.apply(x)
    out.backward()
    rec("outside anomaly mode", x.grad)
    x.grad = None
    with A.detect_anomaly():
        out = MyFunc.apply(x)
        rec("inside anomaly mode", lambda: out.backward())
        rec("x.grad", x.grad)
        y = B.value(-1.0, requires_grad=True).sqrt()
        rec("nan forward", y)
        rec("nan forward backward", lambda: y.backward())
    out = MyFunc.apply(x)
    with A.detect_anomaly():
        rec("node made outside, run inside", lambda: out.backward())
