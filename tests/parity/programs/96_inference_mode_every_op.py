"""inference_mode with every kind of op (recorded ops, tan/clamp/sum/maximum/where, micrograph.sum, a Function, comparisons, clone, detach), alone, with enable_grad inside (torch records nothing, but a Function still records) and no_grad for contrast; what its values refuse later."""

from parity.helpers import echo, saving_square


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(0.5, requires_grad=True)
    x = B.value(2.0, requires_grad=True)

    Sq = saving_square(A, "Sq", lambda a, g: 2 * a * g)

    ops = {"mul": lambda: w * x, "tan": lambda: w.tan(), "clamp": lambda: w.clamp(0, 1), "sum": lambda: w.sum(),
           "maximum": lambda: B.maximum(w, x), "B.sum": lambda: B.sum([w, x]), "where": lambda: B.where(w > 0, w, x),
           "Function": lambda: Sq.apply(w), "add alpha": lambda: B.add(w, x, alpha=2),
           "exp": lambda: w.exp(), "comparison": lambda: w > 0, "clone": lambda: w.clone(),
           "detach": lambda: w.detach()}
    for mode in ("inference", "inference+enable_grad", "no_grad"):
        for k, f in ops.items():
            def go(f=f, mode=mode):
                if mode == "no_grad":
                    with B.no_grad():
                        y = f()
                else:
                    with B.inference_mode():
                        if mode == "inference":
                            y = f()
                        else:
                            with B.enable_grad():
                                y = f()
                return (y.requires_grad, y.grad_fn, y.is_inference())
            rec(f"{mode}: {k}", go)
    with B.inference_mode():
        y = w.tan()
    rec("inference tan used later", lambda: (y * x).backward())
    with B.inference_mode():
        y = B.sum([w, x])
    rec("inference B.sum used later", lambda: (y * x).backward())
    with B.inference_mode():
        y = Sq.apply(w)
    rec("inference Function used later", lambda: (y * x).backward())
    rec("inplace on inference Function output", lambda: y.add_(1))
