"""Two saved values of one node both changed in place: the version error names the one torch's
generated ``apply`` unpacks first, the saved inputs by name (``exponent``, ``max``, ``min``,
``other`` before ``self``), then the result; for mul, div, pow, maximum, minimum, sub, clamp with
Value bounds, exp times its input, a tanh result.  A plain backward and one with create_graph."""


def run(B, rec):
    for cg in (False, True):
        _changed(B, rec, cg, "create_graph: " if cg else "")


def _changed(B, rec, cg, label):
    x, y, z = (B.value(v, requires_grad=True) for v in (1.5, 0.5, 2.5))
    ops = {"mul": lambda a, b: a * b, "div": lambda a, b: a / b, "pow": lambda a, b: a ** b,
           "maximum": B.maximum, "minimum": B.minimum, "sub": lambda a, b: a - b}
    for name, f in ops.items():
        for mods in ("a", "b", "ab", "ao", "bo", "abo"):
            a = x * 1
            b = y + 0
            out = f(a, b)
            keep = out * 1
            if "a" in mods:
                a.mul_(1)
            if "b" in mods:
                b.sub_(0)
            if "o" in mods:
                out.div_(1)
            rec(f"{label}{name} {mods}", lambda: keep.backward(create_graph=cg))
    for mods in ("s", "m", "M", "sm", "sM", "mM", "smM"):
        a = x * 1
        lo = y + 0
        hi = z - 0
        out = B.clamp(a, lo, hi)
        keep = out * 1
        if "s" in mods:
            a.mul_(1)
        if "m" in mods:
            lo.sub_(0)
        if "M" in mods:
            hi.add_(0)
        rec(f"{label}clamp {mods}", lambda: keep.backward(create_graph=cg))
    for mods in ("a", "ao"):
        a = x * 1
        out = a.exp() * a
        keep = out * 1
        a.mul_(1)
        rec(f"{label}exp*a {mods}", lambda: keep.backward(create_graph=cg))
    a = x * 1
    t = a.tanh()
    u = t * a
    a.mul_(1)
    t.sub_(0)
    rec(f"{label}tanh result and mul", lambda: u.backward(create_graph=cg))
    rec(f"{label}grads", [x.grad, y.grad, z.grad])
