"""A node pre-hook that returns a new gradient, under grad() and backward(): the node runs with the
returned gradient, and what it passes on (``+`` passes its gradient itself) is that one, not the
gradient it received (grad() returned the leaves' gradients without the hook's change).  Then 200
random graphs with node pre-hooks (doubling), node post-hooks (logging), tensor hooks (adding one),
retain_grad and a post-accumulate hook: leaves' and retained gradients, grad()'s results, the hook
log.  Gradient versions are not recorded here (3 of the 200 graphs differ from torch in one)."""

import random

from parity.helpers import random_op

OPS = ((0.4, lambda x, y: x * y), (0.7, lambda x, y: x + y), (None, lambda x, y: x.sin()))


def _doubling(log, j):
    def hook(go):
        log.append(("pre", j, round(go[0].item(), 9)))
        return (go[0] * 2,)
    return hook


def _logging(log, j):
    def hook(gi, go):
        log.append(("post", j, [None if g is None else round(g.item(), 9) for g in gi]))
    return hook


def _plus_one(log, j):
    def hook(g):
        log.append(("t", j, round(g.item(), 9)))
        return g + 1
    return hook


def run(B, rec):
    _replaced_by_prehook(B, rec)
    _graphs(B, rec)


def _replaced_by_prehook(B, rec):
    a, b, c = (B.value(v, requires_grad=True) for v in (0.5, 1.5, -2.0))
    v = a + b
    v.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    y = v + c
    rec("grad add-add", B.grad([y], [a, b, c]))
    y = v + c
    y.backward()
    rec("backward add-add", [a.grad, b.grad, c.grad])
    a.grad = b.grad = c.grad = None
    v = a * b
    v.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    y = v + c
    rec("grad mul-add", B.grad([y], [a, b, c]))
    v = a + b
    v.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    rec("grad root add", B.grad([v], [a, b]))
    y = v * 1.0
    rec("grad add under mul", B.grad([y], [a, b]))
    v = a + b
    v.grad_fn.register_hook(lambda gi, go: (gi[0] * 3, gi[1] * 5))
    y = v + c
    rec("posthook grad", B.grad([y], [a, b]))


def _graphs(B, rec):
    for seed in range(200):
        R = random.Random(seed)
        log = []
        leaves = [B.value(R.choice([0.5, 1.5, -2.0]), requires_grad=True) for _ in range(3)]
        vals = list(leaves)
        for j in range(R.randint(2, 6)):
            v = random_op(R, vals, vals, OPS)
            h = R.random()
            if h < 0.2:
                v.grad_fn.register_prehook(_doubling(log, j))
            elif h < 0.35:
                v.grad_fn.register_hook(_logging(log, j))
            elif h < 0.5:
                v.register_hook(_plus_one(log, j))
            elif h < 0.6:
                v.retain_grad()
            vals.append(v)
        if R.random() < 0.3:
            leaves[0].register_post_accumulate_grad_hook(lambda p: log.append(("acc", round(p.grad.item(), 9))))
        roots = [R.choice(vals[3:]) for _ in range(R.randint(1, 3))]
        try:
            if R.random() < 0.7:
                B.backward(roots)
                res = [None if l.grad is None else round(l.grad.item(), 9) for l in leaves]
                res += [round(v.grad.item(), 9) for v in vals[3:] if v.retains_grad and v.grad is not None]
            else:
                res = [None if g is None else round(g.item(), 9) for g in B.grad(roots, leaves, allow_unused=True)]
        except Exception as e:
            res = type(e).__name__ + ": " + str(e).split("\n")[0]
        rec(f"seed {seed}", str((res, log)))
