"""The "Autograd mechanics" notes on tensor hooks and in-place changes, on values of our own: a hook
registered before ``t.cos_()`` (or ``t.mul_(3)``) stays with t's old grad_fn and sees the gradient with
respect to the old value; one registered after sees the gradient with respect to the new one."""


def run(B, rec):
    log = []

    def s(v):
        return None if v is None else round(v.item(), 9)

    w = B.value(0.8, requires_grad=True)
    t = w * 2
    t.register_hook(lambda g: log.append(("before mul_", s(g))))
    t.mul_(3)
    t.register_hook(lambda g: log.append(("after mul_", s(g))))
    t.backward()
    rec("mul_: hooks", [str(e) for e in log])
    rec("mul_: w.grad", w.grad)
    del log[:]

    # a hook registered before an in-place change stays with the old grad_fn
    w = B.value(0.8, requires_grad=True)
    t = w.sin()
    t.register_hook(lambda g: log.append(("before cos_", s(g))))
    t.cos_()
    t.register_hook(lambda g: log.append(("after cos_", s(g))))
    rec("t.grad_fn after cos_", t.grad_fn)
    t.backward()
    rec("in place: hooks", [str(e) for e in log])
    rec("in place: w.grad", w.grad)
