"""The in-place twins of the math ops the notes list among in-place operations: tan_, log1p_,
reciprocal_, sgn_, square_, clip_, clamp_min_ and clamp_max_ (a number or a Value bound), on a
non-leaf and on a leaf that requires grad, and a saved value changed by one."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    cases = [("tan_", ()), ("log1p_", ()), ("reciprocal_", ()), ("sgn_", ()), ("square_", ()),
             ("clip_", (-0.2, 0.3)), ("clamp_min_", (0.4,)), ("clamp_max_", (0.4,))]
    for name, args in cases:
        w = B.value(0.35, requires_grad=True)
        a = w * 2
        out = getattr(a, name)(*args)
        rec(f"{name}: returns a", out is a)
        rec(f"{name}: grad_fn", a.grad_fn)
        rec(f"{name}: value", a)
        rec(f"{name}: version", a._version)
        a.backward()
        rec(f"{name}: w.grad", w.grad)
        rec(f"{name}: on a leaf", lambda: getattr(B.value(0.35, requires_grad=True), name)(*args))
    for name in ("clamp_min_", "clamp_max_"):
        w, bound = B.value(-1.25, requires_grad=True), B.value(0.5, requires_grad=True)
        a = w * 1
        getattr(a, name)(bound)
        rec(f"{name} by a Value: grad_fn", a.grad_fn)
        rec(f"{name} by a Value: next_functions", a.grad_fn.next_functions)
        a.backward()
        rec(f"{name} by a Value: grads", (w.grad, bound.grad))
    w = B.value(1.5, requires_grad=True)
    a = w * 1
    y = a.exp() * a
    a.reciprocal_()
    rec("changed after being saved", lambda: y.backward())
