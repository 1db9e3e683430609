"""inference_mode: nothing recorded, inference values refused later by autograd, with torch's errors."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    with B.inference_mode():
        a = w * 3
        c = B.value(5.0)
        rec("grad enabled inside", B.is_grad_enabled())
        rec("a", a)
        rec("a requires grad", a.requires_grad)
        rec("a is_inference", a.is_inference())
        rec("a grad_fn", a.grad_fn)
        rec("c is_inference", c.is_inference())
        rec("w is_inference", w.is_inference())
        rec("in-place inside", lambda: a.add_(1))
        rec("a after", a)
    rec("grad enabled after", B.is_grad_enabled())
    rec("in-place outside", lambda: a.add_(1))
    rec("saved for backward", lambda: a * w)
    rec("saved for backward (other side)", lambda: w * a)
    rec("added (not saved)", w + a)
    rec("requires_grad_ outside", lambda: a.requires_grad_())
    rec("requires_grad_ on a new value", lambda: c.requires_grad_())
    rec("clone is a normal value", a.clone().is_inference())
    rec("detach stays inference", a.detach().is_inference())
    rec("data stays inference", a.data.is_inference())
    rec("op outside gives a normal value", (a * 2).is_inference())
    rec("clone then use", (a.clone() * w).grad_fn)
    rec("pow with an inference exponent", lambda: B.value(1.0, requires_grad=True) ** a)
    rec("mul_ by an inference value", lambda: (w * 1).mul_(a))
    with B.no_grad():
        d = w * 2
    rec("no_grad results are not inference", d.is_inference())

    @B.inference_mode()
    def f(v):
        return v * 2

    rec("decorator", (f(w).requires_grad, f(w).is_inference()))

    @B.inference_mode
    def g(v):
        return v * 2

    rec("bare decorator", (g(w).requires_grad, g(w).is_inference()))
    with B.inference_mode():
        with B.inference_mode(False):
            rec("inference_mode(False) inside", (B.is_grad_enabled(), (w * 2).requires_grad, (w * 2).is_inference()))
        rec("back inside", (w * 2).is_inference())
