"""What stays a Parameter, on values of our own: results of ops, detach(), .data, clone(), a deepcopy (which
leaves .grad out, even one with a graph), a Parameter of a Parameter, and the requires_grad of each."""

import copy


def run(B, rec):
    P = B.nn.Parameter
    p = P(B.value(0.65))
    for name, f in {"p * 2": lambda: p * 2, "p.detach()": lambda: p.detach(), "p.data": lambda: p.data,
                    "p.clone()": lambda: p.clone(), "deepcopy(p)": lambda: copy.deepcopy(p),
                    "P(p)": lambda: P(p), "P(p.detach())": lambda: P(p.detach()), "-p": lambda: -p,
                    "p.exp()": lambda: p.exp()}.items():
        q = f()
        rec(name, (q, isinstance(q, P), q.is_leaf, q.requires_grad))
    d = copy.deepcopy(p)
    rec("deepcopy is another object", d is not p)
    d.data.add_(1)
    rec("deepcopy does not share", (p, d))
    (p * p).backward()  # a Parameter's deepcopy leaves .grad out, a plain one or one with a graph
    e = copy.deepcopy(p)
    rec("deepcopy of a Parameter with a .grad", (e, isinstance(e, P), e.requires_grad, e.grad))
    p.grad = p * 2  # what create_graph=True leaves: a .grad with a grad_fn, whose own deepcopy is refused
    f = copy.deepcopy(p)
    rec("deepcopy of a Parameter whose .grad has a graph", (f, isinstance(f, P), f.grad))
    p.grad = None
    q = P(p)
    q.data.add_(1)
    rec("P(p) shares the number", (p, q))
    with B.no_grad():
        r = p * 3
    rec("op under no_grad", (r, isinstance(r, P), r.requires_grad))
