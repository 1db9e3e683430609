"""inference_mode: is_inference of what it makes, requires_grad_ inside, enable_grad and inference_mode(False) nested, backward inside, inference values refused later in autograd, in-place and requires_grad outside, decorators."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.5, requires_grad=True)
    rec("default", B.is_inference_mode_enabled())
    with B.inference_mode():
        rec("in", (B.is_inference_mode_enabled(), B.is_grad_enabled()))
        y = w * 2
        c = B.value(3.0)
        rec("y", (y, y.requires_grad, y.grad_fn, y.is_leaf, y.is_inference()))
        rec("c is_inference", c.is_inference())
        rec("w is_inference", w.is_inference())
        rec("requires_grad_ in", lambda: c.requires_grad_())
        rec("c after", c.requires_grad)
        with B.enable_grad():
            z = w * 3
            rec("enable_grad inside", (B.is_grad_enabled(), z.requires_grad, z.grad_fn, z.is_inference()))
        with B.inference_mode(False):
            rec("nested false", (B.is_inference_mode_enabled(), B.is_grad_enabled()))
            q = w * 4
            rec("q", (q.requires_grad, q.grad_fn, q.is_inference()))
        with B.no_grad():
            rec("no_grad inside", B.is_inference_mode_enabled())
        rec("backward in inference", lambda: (w * 2).backward())
    rec("after", (B.is_inference_mode_enabled(), B.is_grad_enabled()))
    rec("use inference tensor in autograd", lambda: (y * w).backward())
    rec("use inference tensor, no save", lambda: (y + w).backward())
    rec("w.grad", w.grad)
    rec("inplace on inference tensor", lambda: y.add_(1))
    rec("inplace on inference tensor nograd", lambda: B.value(0.0) and None)
    with B.no_grad():
        rec("inplace on inference under no_grad", lambda: y.add_(1))
    with B.inference_mode():
        rec("inplace in inference on inf", lambda: y.add_(1))
        rec("y after", y)
        rec("inplace on normal in inference", lambda: w.add_(1))
        d = B.value(1.0)
        rec("inplace on normal const in inference", lambda: d.add_(1))
    rec("requires_grad on inf", lambda: setattr(y, "requires_grad", True))
    rec("clone of inf", lambda: y.clone().is_inference())
    rec("detach of inf", lambda: y.detach().is_inference())
    rec("inf * 2 outside", lambda: (y * 2).is_inference())
    rec("inf item", y.item())
    @B.inference_mode()
    def f(a):
        return (a * 2).requires_grad
    rec("decorator", lambda: f(w))
    @B.inference_mode
    def g(a):
        return (a * 2).requires_grad
    rec("decorator bare", lambda: g(w))
    rec("mode arg", lambda: B.inference_mode(mode=False).__class__.__name__)
    with B.inference_mode(True):
        cc = B.value(1.0, requires_grad=True)
        rec("leaf rg in inference", (cc.requires_grad, cc.is_inference()))
        rec("leaf rg op", (cc * 2).requires_grad)
    rec("leaf rg outside", lambda: (cc * 2).backward())
    rec("cc.grad", cc.grad)
