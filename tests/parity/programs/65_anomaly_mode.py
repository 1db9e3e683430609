"""Anomaly detection: the mode flag, its warning, nan checks and the error warning of a failing node."""


def run(B, rec):
    A = B.autograd
    rec("off by default", B.is_anomaly_enabled())
    with A.detect_anomaly():
        rec("on inside detect_anomaly", B.is_anomaly_enabled())
        rec("check_nan inside", B.is_anomaly_check_nan_enabled())
        w = B.value(0.0, requires_grad=True)
        y = w.sqrt() * 0.0
        rec("nan gradient in anomaly mode", lambda: y.backward())
        rec("w.grad after the nan error", w.grad)
        v = B.value(2.0, requires_grad=True)
        a = v * 1
        b = a * a
        a.add_(1)
        rec("version error in anomaly mode", lambda: b.backward())
    rec("off after the block", B.is_anomaly_enabled())
    with A.detect_anomaly(check_nan=False):
        w = B.value(0.0, requires_grad=True)
        y = w.sqrt() * 0.0
        rec("nan allowed without check_nan", lambda: y.backward())
        rec("w.grad without check_nan", w.grad)
    A.set_detect_anomaly(True)
    rec("set_detect_anomaly(True)", B.is_anomaly_enabled())
    w = B.value(-1.0, requires_grad=True)
    y = w.log()
    rec("log of a negative: backward", lambda: y.backward())
    z = (B.value(3.0, requires_grad=True) * 2)
    z.backward(retain_graph=False)
    rec("second backward in anomaly mode", lambda: z.backward())
    m = B.value(2.0, requires_grad=True) * B.value(3.0, requires_grad=True)
    m.backward()
    rec("second backward of a mul in anomaly mode", lambda: m.backward())
    A.set_detect_anomaly(False)
    rec("set_detect_anomaly(False)", B.is_anomaly_enabled())
    with A.set_detect_anomaly(True):
        rec("set_detect_anomaly as a context", B.is_anomaly_enabled())
    rec("after the context", B.is_anomaly_enabled())
    w = B.value(0.0, requires_grad=True)
    y = w.sqrt() * 0.0
    y.backward()
    rec("nan gradient outside anomaly mode", w.grad)
