"""What a student tries to reshape or index a 0-dim value with: ``v[()]``, ``v[...]``, ``view(())``,
``reshape(())``, ``view_as``; their nodes, gradients, shared storage and version counter, torch's errors
for shapes that do not fit one element and for arguments of the wrong type."""

from parity.helpers import attempt


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    y = w * 3
    makers = {
        "w[()]": lambda: w[()], "w[...]": lambda: w[...], "y[()]": lambda: y[()], "w.view(())": lambda: w.view(()),
        "w.reshape(())": lambda: w.reshape(()), "y.view(())": lambda: y.view(()), "y.reshape([])": lambda: y.reshape([]),
        "w.view_as(y)": lambda: w.view_as(y), "w.reshape_as(y)": lambda: w.reshape_as(y), "y.view([])": lambda: y.view([]),
        "w.t()": lambda: w.t(), "y.T": lambda: y.T, "w.permute(())": lambda: w.permute(()), "y.squeeze()": lambda: y.squeeze(),
        "w.squeeze(0)": lambda: w.squeeze(0), "w.squeeze(-1)": lambda: w.squeeze(-1), "w.expand(())": lambda: w.expand(()),
        "y.expand([])": lambda: y.expand([]),
    }
    for label, make in makers.items():
        v = make()
        rec(f"{label}", (v, v.requires_grad, v.is_leaf, v.grad_fn, v.grad_fn.next_functions, v.shape, v.dim()))
        rec(f"{label}: saved", attempt(lambda: [getattr(v.grad_fn, n) for n in dir(v.grad_fn) if n.startswith("_saved_")]))
        rec(f"{label}: is w", v is w)
        rec(f"{label}: version shared", (v._version, w._version))
        (g,) = B.grad(v * v, w, retain_graph=True)
        rec(f"{label}: grad", g)
    x = B.value(5.0)
    for label, make in {"x[()]": lambda: x[()], "x.view(())": lambda: x.view(()), "x.reshape(())": lambda: x.reshape(()),
                        "x[...]": lambda: x[...]}.items():
        v = make()
        rec(f"{label} of a constant", (v, v.requires_grad, v.grad_fn, v.is_leaf, v is x))
        v.add_(1)
        rec(f"{label}: in place through it", (x, v, x._version, v._version))
    c = B.value(1.0)
    with B.no_grad():
        v = w[()]
        rec("w[()] under no_grad", (v, v.requires_grad, v.grad_fn, v.is_leaf))
        v2 = c.reshape(())
        rec("reshape under no_grad", (v2, v2.requires_grad, v2.grad_fn))
    for label, f in {
        "w[0]": lambda: w[0], "w[:]": lambda: w[:], "w[1:]": lambda: w[1:], "w[-1]": lambda: w[-1],
        "w[0.5]": lambda: w[0.5], "w.view(2)": lambda: w.view(2), "w.view(0)": lambda: w.view(0),
        "w.view(-1, -1)": lambda: w.view(-1, -1), "w.view()": lambda: w.view(), "w.view('a')": lambda: w.view("a"),
        "w.view(1.0)": lambda: w.view(1.0), "w.reshape()": lambda: w.reshape(), "w.reshape(2)": lambda: w.reshape(2),
        "w.reshape(3, -1)": lambda: w.reshape(3, -1), "w.view((2,))": lambda: w.view((2,)), "w.view(-2)": lambda: w.view(-2),
        "w.reshape(None)": lambda: w.reshape(None), "w.view_as(2.0)": lambda: w.view_as(2.0),
        "w.view(0, -1)": lambda: w.view(0, -1), "w.squeeze(1)": lambda: w.squeeze(1), "w.permute(0)": lambda: w.permute(0), "w.permute()": lambda: w.permute(),
        "w.contiguous() is w": lambda: w.contiguous() is w, "w.double() is w": lambda: w.double() is w,
        "count.double()": lambda: _double((x > 0).sum() + 1), "flag.double()": lambda: _double(x > 0),
    }.items():
        rec(label, attempt(f))
    rec("w.grad", w.grad)


def _double(v):
    d = v.double()
    return (d, str(d.dtype), d.requires_grad, d is v)
