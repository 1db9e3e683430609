"""maximum/minimum (ties split the gradient, constants, nan), where in every form (numbers for x or y, a Value or number as condition, v.where), add/sub with alpha (ints, floats, 0, negative, a Value, bool and str refused): values, nodes, edges, gradients, saved alpha."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(1.25, requires_grad=True)
    x = B.value(1.25, requires_grad=True)
    y = B.value(-3.0, requires_grad=True)
    c = B.value(2.0)
    def full(f):
        def go():
            out = f()
            r = [out, out.grad_fn, [n for n, _ in out.grad_fn.next_functions] if out.grad_fn else None]
            if out.requires_grad:
                r.append(B.grad(out, [w, x, y], allow_unused=True, retain_graph=True))
            return r
        return go
    cases = {
        "maximum tie": lambda: B.maximum(w, x), "minimum tie": lambda: B.minimum(w, x), "maximum": lambda: B.maximum(w, y),
        "minimum": lambda: B.minimum(y, w), "maximum const": lambda: B.maximum(w, c), "maximum const first": lambda: B.maximum(c, w),
        "w.max(x)": lambda: w.max(x), "w.min(y)": lambda: w.min(y), "w.maximum(c)": lambda: w.maximum(c),
        "maximum float": lambda: B.maximum(w, 2.0), "maximum nan": lambda: B.maximum(w, B.value(float("nan"))),
        "where true": lambda: B.where(w > 0, w, y), "where false": lambda: B.where(w < 0, w, y), "where const x": lambda: B.where(w > 0, c, y),
        "where float x": lambda: B.where(w > 0, 2.0, y), "where float y": lambda: B.where(w > 0, w, 0.0), "where both float": lambda: B.where(w > 0, 1.0, 0.0),
        "where cond float": lambda: B.where(1.0, w, y), "where cond Value float": lambda: B.where(w, w, y), "where cond True": lambda: B.where(True, w, y),
        "w.where": lambda: w.where(w > 0, y), "add alpha 2": lambda: B.add(w, y, alpha=2), "add alpha 0.5": lambda: B.add(w, y, alpha=0.5),
        "add alpha 0": lambda: B.add(w, y, alpha=0), "add alpha -1": lambda: B.add(w, y, alpha=-1), "add alpha Value": lambda: B.add(w, y, alpha=c),
        "sub alpha 3": lambda: B.sub(w, y, alpha=3), "sub alpha 1": lambda: B.sub(w, y, alpha=1), "add float alpha": lambda: B.add(w, 2.0, alpha=3),
        "add const alpha": lambda: B.add(w, c, alpha=3), "add const first alpha": lambda: B.add(c, w, alpha=3), "w.add(y, alpha=2)": lambda: w.add(y, alpha=2),
        "w.sub(y, alpha=2)": lambda: w.sub(y, alpha=2), "add alpha True": lambda: B.add(w, y, alpha=True), "add alpha str": lambda: B.add(w, y, alpha="a"),
        "add float float": lambda: B.add(2.0, 3.0), "add alpha positional": lambda: B.add(w, y, 2),
        "rsub alpha": lambda: B.sub(2.0, w, alpha=2),
    }
    for k, f in cases.items():
        rec(k, full(f))
    rec("saved alpha", lambda: (B.add(w, y, alpha=2).grad_fn._saved_alpha, B.sub(w, y, alpha=2.5).grad_fn._saved_alpha))
    rec("where saved", lambda: B.where(w > 0, w, y).grad_fn._saved_condition)
