"""What each reduction of a 0-dim Value shows as _saved_* (dim as torch stores it, keepdim, self_sym_sizes, self/result, max(dim)'s indices), before and after a freeing backward; prod and max check their saved input against in-place changes, sum saves nothing."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    names = ("self", "result", "dim", "keepdim", "self_sym_sizes", "self_sym_numel", "indices", "other")
    for x0 in (0.75, -2.0):
        w = B.value(x0, requires_grad=True)
        for label, f in {"sum()": lambda: w.sum(), "sum(0)": lambda: w.sum(0), "sum(-1, True)": lambda: w.sum(-1, True),
                         "sum(dim=None)": lambda: w.sum(dim=None), "sum(())": lambda: w.sum(()), "sum([0])": lambda: w.sum([0]),
                         "mean()": lambda: w.mean(), "mean(-1)": lambda: w.mean(-1), "prod()": lambda: w.prod(), "prod(0, True)": lambda: w.prod(0, True),
                         "prod(-1)": lambda: w.prod(-1), "amax()": lambda: w.amax(), "amin(0)": lambda: w.amin(0), "amax((-1,), True)": lambda: w.amax((-1,), True),
                         "max()": lambda: w.max(), "min()": lambda: w.min(), "max(0)": lambda: w.max(0)[0], "min(-1, True)": lambda: w.min(-1, True).values,
                         "logsumexp(0)": lambda: w.logsumexp(0), "logsumexp((-1,), True)": lambda: w.logsumexp((-1,), True),
                         "cumsum(0)": lambda: w.cumsum(0), "cumsum(-1)": lambda: w.cumsum(-1), "nansum()": lambda: w.nansum(), "nansum(0)": lambda: w.nansum(0)}.items():
            y = f()
            node = y.grad_fn
            def shown(node=node):
                out = []
                for n in names:
                    try:
                        out.append((n, getattr(node, f"_saved_{n}")))
                    except AttributeError:
                        pass
                    except RuntimeError as e:
                        out.append((n, "error: " + str(e)[:40]))
                return out
            rec(f"{label} at {x0}: node", node)
            rec(f"{label} at {x0}: saved", shown)
            y.backward()
            rec(f"{label} at {x0}: after backward", shown)
            rec(f"{label} at {x0}: w.grad", w.grad)
            w.grad = None
    w = B.value(1.5, requires_grad=True)
    a = w * 1
    p = a.prod()
    a.mul_(2)
    rec("prod saved its input: in-place after", lambda: p.backward())
    a = w * 1
    m = a.max()
    a.add_(1)
    rec("max saved its input: in-place after", lambda: m.backward())
    a = w * 1
    s = a.sum()
    a.add_(1)
    rec("sum saved nothing: in-place after", lambda: s.backward())
    terms = [B.value(0.5, requires_grad=True), B.value(-1.0), B.value(2.0, requires_grad=True)]
    s = B.sum(terms)
    rec("sum of a list: _saved_self_sym_sizes", s.grad_fn._saved_self_sym_sizes)
    s.backward()
    rec("sum of a list: after backward", s.grad_fn._saved_self_sym_sizes)
