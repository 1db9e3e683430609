"""sum() and mean() of a 0-dim Value, their nodes and gradients, and the shape API (size(dim), numel, nelement, ndimension), indexing, conversions."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.0, requires_grad=True)
    x = B.value(-1.5, requires_grad=True)
    for label, f in {"sum": lambda v: v.sum(), "mean": lambda v: v.mean()}.items():
        for vn, v in (("w", w), ("x", x)):
            def go(f=f, v=v):
                r = f(v)
                return [r, r.grad_fn, B.grad(r, v, allow_unused=True)]
            rec(f"{label} on {vn}", go)
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
