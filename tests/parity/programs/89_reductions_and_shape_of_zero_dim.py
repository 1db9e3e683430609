"""Reductions of a 0-dim Value with dim/keepdim in every spelling (sum, mean, prod, amax, amin, max, min, logsumexp, cumsum, nansum), their nodes and gradients, and the shape API (size(dim), numel, nelement, ndimension)."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.0, requires_grad=True)
    x = B.value(-1.5, requires_grad=True)
    for label, f in {"sum": lambda v: v.sum(), "sum(0)": lambda v: v.sum(0), "sum(-1)": lambda v: v.sum(-1), "sum(dim=0, keepdim=True)": lambda v: v.sum(dim=0, keepdim=True),
                     "sum(1)": lambda v: v.sum(1), "sum((0,))": lambda v: v.sum((0,)), "sum(())": lambda v: v.sum(()), "sum([])": lambda v: v.sum([]),
                     "mean": lambda v: v.mean(), "mean(0)": lambda v: v.mean(0), "mean(dim=-1, keepdim=True)": lambda v: v.mean(dim=-1, keepdim=True),
                     "prod": lambda v: v.prod(), "prod(0)": lambda v: v.prod(0), "prod(0, True)": lambda v: v.prod(0, True),
                     "amax": lambda v: v.amax(), "amax(0)": lambda v: v.amax(0), "amin(())": lambda v: v.amin(()), "amax(dim=0, keepdim=True)": lambda v: v.amax(dim=0, keepdim=True),
                     "max": lambda v: v.max(), "min": lambda v: v.min(), "max(0)": lambda v: v.max(0), "max(dim=0)": lambda v: v.max(dim=0), "min(0, keepdim=True)": lambda v: v.min(0, keepdim=True),
                     "max(0)[0]": lambda v: v.max(0)[0], "max(0).values": lambda v: v.max(0).values, "max(0).indices": lambda v: v.max(0).indices, "min(0)[1]": lambda v: v.min(0)[1],
                     "argmax": lambda v: v.argmax(), "argmin(0)": lambda v: v.argmin(0),
                     "logsumexp(0)": lambda v: v.logsumexp(0), "cumsum(0)": lambda v: v.cumsum(0), "nansum": lambda v: v.nansum(),
                     "sum(dtype)": lambda v: v.sum(keepdim=True), "mean(keepdim only)": lambda v: v.mean(keepdim=True),
                     }.items():
        for vn, v in (("w", w), ("x", x)):
            def go(f=f, v=v):
                r = f(v)
                outs = r if isinstance(r, tuple) else (r,)
                res = [r]
                for o in outs:
                    res.append(o.grad_fn)
                    if o.requires_grad:
                        res.append(B.grad(o, v, allow_unused=True))
                return res
            rec(f"{label} on {vn}", go)
    y = w * 2
    rec("max(0) type", lambda: type(y.max(0)).__name__)
    rec("max(0) len", lambda: len(y.max(0)))
    rec("max(0) unpack", lambda: [a for a in y.max(0)])
    rec("max(0) indices grad_fn", lambda: (y.max(0)[1].grad_fn, y.max(0)[1].requires_grad))
    rec("item", (w.item(), x.item()))
    rec("item type", type(x.item()).__name__)
    rec("tolist", lambda: x.tolist())
    rec("shape", lambda: x.shape)
    rec("shape len", lambda: len(x.shape))
    rec("shape == ()", lambda: x.shape == ())
    rec("size()", lambda: x.size())
    rec("size(0)", lambda: x.size(0))
    rec("size(-1)", lambda: x.size(-1))
    rec("numel", lambda: x.numel())
    rec("dim", lambda: x.dim())
    rec("ndim", lambda: x.ndim)
    rec("ndimension", lambda: x.ndimension())
    rec("nelement", lambda: x.nelement())
    rec("len", lambda: len(x))
    rec("iter", lambda: list(x))
    rec("index 0", lambda: x[0])
    rec("is_floating_point", lambda: x.is_floating_point())
    rec("element_size", lambda: x.element_size())
    rec("int()", lambda: int(x))
    rec("float()", lambda: float(x))
    rec("abs builtin", lambda: abs(x))
    rec("format", lambda: f"{x:.2f}")
    rec("clone grad_fn", lambda: x.clone().grad_fn)
    rec("detach", lambda: x.detach())
    rec("zero_like numbers", lambda: None)
    rec("rpow int", lambda: (2 ** x).grad_fn)
    rec("+x is x", lambda: (+x) is x)
    rec("+(x * 2) keeps its node", lambda: (+(x * 2)).grad_fn)
