"""retain_graph x create_graph in backward() and grad(): what a second pass finds, .grad under create_graph (accumulating, differentiable), grad of grad. (Recorded after 39, which takes the once-per-process create_graph warning.)"""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.8, requires_grad=True)
    x = B.value(-1.2, requires_grad=True)
    def fresh():
        a = w * x
        return a, a.exp() * a
    for rg in (None, False, True):
        for cg in (False, True):
            a, y = fresh()
            w.grad = x.grad = None
            rec(f"backward rg={rg} cg={cg}", lambda: y.backward(retain_graph=rg, create_graph=cg))
            rec(f"  grads rg={rg} cg={cg}", (w.grad, x.grad))
            rec(f"  grad requires grad rg={rg} cg={cg}", None if w.grad is None else (w.grad.requires_grad, w.grad.grad_fn, w.grad.is_leaf))
            rec(f"  again rg={rg} cg={cg}", lambda: y.backward())
            rec(f"  grads again rg={rg} cg={cg}", (w.grad, x.grad))
            a, y = fresh()
            r = rec(f"grad rg={rg} cg={cg}", lambda: B.grad(y, [w, x], retain_graph=rg, create_graph=cg))
            rec(f"  grad value rg={rg} cg={cg}", r)
            rec(f"  grad again rg={rg} cg={cg}", lambda: B.grad(y, [w]))
            rec(f"  grad of a again rg={rg} cg={cg}", lambda: B.grad(a, [w]))
    w.grad = None
    a, y = fresh()
    (gw,) = B.grad(y, w, create_graph=True)
    rec("grad of grad", lambda: B.grad(gw, [w, x]))
    rec("grad of grad again (retain default False)", lambda: B.grad(gw, [w, x]))
    a, y = fresh()
    (gw,) = B.grad(y, w, create_graph=True)
    gw.backward(retain_graph=True)
    rec("gw.backward grads", (w.grad, x.grad))
    rec("y.backward after grad(create_graph)", lambda: y.backward())
    rec("y.backward again", lambda: y.backward())
    w.grad = x.grad = None
    a, y = fresh()
    y.backward(create_graph=True)
    rec("cg .grad", (w.grad, w.grad.grad_fn))
    y.backward(create_graph=True)
    rec("cg accumulate", (w.grad, w.grad.grad_fn))
    w.grad.backward()
    rec("backward of .grad", (w.grad, x.grad))
    w.grad = x.grad = None
    a, y = fresh()
    y.backward(retain_graph=False, create_graph=True)
    rec("cg with retain False: again", lambda: y.backward())
    rec("cg with retain False: grad of grad", lambda: B.grad(w.grad, x))
