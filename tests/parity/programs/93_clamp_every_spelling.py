"""clamp in every spelling at points below, on and above the bounds: number bounds (ClampBackward1), Value bounds (ClampBackward0, gradients to the bound that won), clamp_min/clamp_max with a Value (ClampMinBackward1/ClampMaxBackward1), a mix of Value and number (torch's TypeError), crossed bounds, nan."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    for v0 in (-2.0, 0.5, 1.0, 3.0):
        w = B.value(v0, requires_grad=True)
        lo = B.value(0.5, requires_grad=True)
        hi = B.value(1.0, requires_grad=True)
        cases = {
            "clamp(0.5, 1)": lambda: w.clamp(0.5, 1), "clamp(min=0.5)": lambda: w.clamp(min=0.5), "clamp(max=1)": lambda: w.clamp(max=1),
            "clamp(lo, hi)": lambda: w.clamp(lo, hi), "clamp(min=lo)": lambda: w.clamp(min=lo), "clamp(max=hi)": lambda: w.clamp(max=hi),
            "clamp(lo, 1.0)": lambda: w.clamp(lo, 1.0), "clamp_min(0.5)": lambda: w.clamp_min(0.5), "clamp_max(1)": lambda: w.clamp_max(1),
            "clamp_min(lo)": lambda: w.clamp_min(lo), "clamp_max(hi)": lambda: w.clamp_max(hi), "clip(0.5, 1)": lambda: w.clip(0.5, 1),
            "B.clamp(w, 0.5, 1)": lambda: B.clamp(w, 0.5, 1), "B.clamp(w, min=lo)": lambda: B.clamp(w, min=lo), "B.clip(w, max=hi)": lambda: B.clip(w, max=hi),
            "clamp(1, 0.5)": lambda: w.clamp(1, 0.5), "clamp(hi, lo)": lambda: w.clamp(hi, lo),
        }
        for label, f in cases.items():
            def go(f=f):
                y = f()
                r = [y, y.grad_fn]
                if y.grad_fn is not None:
                    r.append(B.grad(y, [w, lo, hi], allow_unused=True, retain_graph=True))
                    g = B.grad(y * y, w, create_graph=True)[0]
                    r.append((g.grad_fn, [n for n, _ in g.grad_fn.next_functions] if g.grad_fn else None))
                return r
            rec(f"{label} at {v0}", go)
    w = B.value(0.7, requires_grad=True)
    rec("clamp()", lambda: w.clamp())
    rec("clamp(None, None)", lambda: w.clamp(None, None))
    rec("clamp('a')", lambda: w.clamp("a"))
    rec("clamp(min=nan)", lambda: w.clamp(min=float("nan")))
    rec("clamp(max=nan)", lambda: w.clamp(max=float("nan")))
    rec("clamp nan input", lambda: B.value(float("nan"), requires_grad=True).clamp(0, 1))
    rec("saved after", lambda: (w.clamp(0.1, 0.6).grad_fn._saved_min, w.clamp(0.1, 0.6).grad_fn._saved_max))
    c = B.value(0.5)
    for label, f in (("clamp(const Value, 1.0)", lambda: w.clamp(c, 1.0)), ("clamp(1.0, const Value)", lambda: w.clamp(1.0, c)),
                     ("clamp(const Value, lo)", lambda: w.clamp(c, lo)), ("clamp_min(const Value)", lambda: w.clamp_min(c)),
                     ("B.clamp(w, c, 2)", lambda: B.clamp(w, c, 2)), ("B.clamp(w, lo, 2)", lambda: B.clamp(w, lo, 2))):
        rec(label, lambda: f().grad_fn)
