"""In-place math ops a student meets (``cos_``, ``exp_``, ``relu_``, ``clamp_`` ...) and ``add_``/``sub_``
with ``alpha=``: on a non-leaf (its value, node, version, the gradient through it), on a leaf that
requires grad (torch's error, nothing changed), on a plain value; an in-place op after the value was
saved by another op (the version error)."""


def run(B, rec):
    ops = {
        "cos_": lambda t: t.cos_(), "sin_": lambda t: t.sin_(), "exp_": lambda t: t.exp_(), "log_": lambda t: t.log_(),
        "sqrt_": lambda t: t.sqrt_(), "tanh_": lambda t: t.tanh_(), "sigmoid_": lambda t: t.sigmoid_(),
        "relu_": lambda t: t.relu_(), "abs_": lambda t: t.abs_(), "neg_": lambda t: t.neg_(),
        "clamp_(0, 0.5)": lambda t: t.clamp_(0, 0.5), "clamp_(min=1.0)": lambda t: t.clamp_(min=1.0),
        "pow_(2)": lambda t: t.pow_(2), "add_(y, alpha=2)": lambda t: t.add_(B.value(0.5), alpha=2),
        "sub_(y, alpha=3)": lambda t: t.sub_(B.value(0.25), alpha=3), "add_(2, alpha=0.5)": lambda t: t.add_(2, alpha=0.5),
    }
    for name, op in ops.items():
        for start in (0.8, -0.6):
            w = B.value(start, requires_grad=True)
            t = w * 1.5
            key = f"{name} at {start}"
            r = rec(key, lambda: op(t))
            if r is None:  # the op failed: its error is the observation
                continue
            rec(f"{key}: returns t", r is t)
            rec(f"{key}: t, node, version", (t, t.grad_fn, t._version))
            rec(f"{key}: the node's input", [n for n, _ in t.grad_fn.next_functions])
            t.backward()
            rec(f"{key}: w.grad", w.grad)
        w = B.value(0.8, requires_grad=True)
        rec(f"{name} on a leaf", lambda: op(w))
        rec(f"{name} on a leaf: w", (w, w._version))
        c = B.value(0.8)
        if rec(f"{name} on a plain value", lambda: op(c)) is not None:
            rec(f"{name} on a plain value: c", (c, c._version, c.requires_grad))
        w = B.value(0.8, requires_grad=True)
        t = w * 1.5
        y = t * t
        rec(f"{name} after t was saved, then backward", lambda: (op(t), y.backward()))
    w = B.value(0.3, requires_grad=True)
    t = w.exp()
    t.sin_()
    rec("exp then sin_: node", (t.grad_fn, [n for n, _ in t.grad_fn.next_functions]))
    rec("exp then sin_: backward (exp saved its result, now changed)", lambda: t.backward())
    w = B.value(0.3, requires_grad=True)
    t = w.sin()
    t.exp_()
    t.backward()
    rec("sin then exp_: w.grad", w.grad)
