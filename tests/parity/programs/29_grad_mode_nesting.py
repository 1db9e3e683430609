"""enable_grad and set_grad_enabled nest inside no_grad and restore on exit."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    with B.no_grad():
        with B.enable_grad():
            rec("enable_grad in no_grad: enabled", B.is_grad_enabled())
            y = w * w
        rec("back in no_grad: enabled", B.is_grad_enabled())
        z = w * w
    rec("y.grad_fn", y.grad_fn)
    rec("z.grad_fn", z.grad_fn)

    rec("set_grad_enabled(False) as a call", lambda: B.set_grad_enabled(False))
    rec("after the call: enabled", B.is_grad_enabled())
    rec("graph after the call", (w * 3).grad_fn)
    B.set_grad_enabled(True)
    rec("after set_grad_enabled(True)", B.is_grad_enabled())

    with B.set_grad_enabled(False):
        rec("set_grad_enabled(False) ctx: enabled", B.is_grad_enabled())
        a = w + 1
        with B.set_grad_enabled(True):
            rec("nested set_grad_enabled(True): enabled", B.is_grad_enabled())
            b = w + 1
        with B.no_grad():
            with B.no_grad():
                rec("double no_grad: enabled", B.is_grad_enabled())
            rec("after inner no_grad: enabled", B.is_grad_enabled())
    rec("after ctx: enabled", B.is_grad_enabled())
    rec("a.grad_fn", a.grad_fn)
    rec("b.grad_fn", b.grad_fn)

    with B.no_grad():
        with B.set_grad_enabled(True):
            c = w.sin()
        rec("restored to no_grad", B.is_grad_enabled())
    rec("c.grad_fn", c.grad_fn)

    with B.enable_grad():
        with B.set_grad_enabled(False):
            rec("set_grad_enabled(False) in enable_grad", B.is_grad_enabled())
        rec("back in enable_grad", B.is_grad_enabled())
