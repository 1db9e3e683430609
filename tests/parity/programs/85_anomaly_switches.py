"""set_detect_anomaly/detect_anomaly: bools only, not decorators, check_nan, errors in custom Functions and micrograph.sum."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.5, requires_grad=True)
    x = B.value(2.0, requires_grad=True)
    rec("anomaly default", B.is_anomaly_enabled())
    rec("set_detect_anomaly returns", lambda: type(A.set_detect_anomaly(True)).__name__)
    rec("enabled", B.is_anomaly_enabled())
    rec("check nan", B.is_anomaly_check_nan_enabled())
    A.set_detect_anomaly(False)
    rec("disabled", B.is_anomaly_enabled())
    with A.detect_anomaly():
        rec("in ctx", (B.is_anomaly_enabled(), B.is_anomaly_check_nan_enabled()))
        y = (w - 0.5).sqrt()
        rec("nan grad in anomaly", lambda: (y * 0 + y).backward())
        rec("w.grad", w.grad)
    rec("after ctx", B.is_anomaly_enabled())
    with A.detect_anomaly(check_nan=False):
        rec("in ctx nocheck", (B.is_anomaly_enabled(), B.is_anomaly_check_nan_enabled()))
        y = (x - 2.0).sqrt()
        rec("nan grad no check", lambda: y.backward())
        rec("x.grad", x.grad)
    with A.set_detect_anomaly(True):
        rec("set as ctx", B.is_anomaly_enabled())
    rec("after set ctx", B.is_anomaly_enabled())
    def mk():
        @A.detect_anomaly()
        def f():
            return B.is_anomaly_enabled()
        return f()
    rec("decorator", mk)
    rec("set_detect_anomaly bad", lambda: A.set_detect_anomaly("yes"))
    rec("set_detect_anomaly 1", lambda: A.set_detect_anomaly(1))
    A.set_detect_anomaly(False)
    with A.detect_anomaly():
        a = w * x
        b = a * a
        a.add_(1)
        rec("version error in anomaly", lambda: b.backward())
    with A.detect_anomaly():
        a = w * x
        b = a.exp()
        b.add_(1)
        rec("version error output in anomaly", lambda: a.backward() or b.backward())
    with A.detect_anomaly():
        a = w * x
        b = a * 2
        b.backward()
        rec("second backward in anomaly", lambda: b.backward())

    class Bad(A.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    with A.detect_anomaly():
        rec("custom nan", lambda: Bad.apply(w).backward())
        rec("custom nan in grad", lambda: B.grad(Bad.apply(w) * 3, w))

    class Raise(A.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    with A.detect_anomaly():
        rec("custom raises", lambda: Raise.apply(w).backward())
    with A.detect_anomaly():
        s = B.sum([w * 0, (w - 0.5).sqrt()])
        rec("B.sum nan", lambda: s.backward())
    with A.detect_anomaly():
        y = (w * 0).log() * 0
        rec("log 0 * 0", lambda: y.backward())
    with A.detect_anomaly():
        rec("forward nan is fine", lambda: (B.value(-1.0, requires_grad=True).sqrt()))
    rec("metadata default", len((w * 2).grad_fn.metadata))
    with A.detect_anomaly():
        rec("metadata in anomaly keys", lambda: sorted((w * 2).grad_fn.metadata.keys()))
