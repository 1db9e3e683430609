"""backward(inputs=...) and grad() on 150 random graphs each: one or two roots (a leaf among them
at times), one to three inputs (leaves and intermediates, some off every root's path), tensor hooks
on half of the graphs' values logging (value, gradient).  Recorded: the inputs' gradients, every
leaf's .grad, the hook log, or the error."""

import random

from parity.helpers import random_op

OPS = ((0.4, lambda x, y: x * y), (0.7, lambda x, y: x + y), (0.85, lambda x, y: x.sin()),
       (None, lambda x, y: x.clone()))


def run(B, rec):
    for use_grad in (False, True):
        _graphs(B, rec, use_grad)


def _graphs(B, rec, use_grad):
    for seed in range(150):
        R = random.Random(seed)
        log = []
        leaves = [B.value(R.choice([0.5, 1.5, -2.0]), requires_grad=True) for _ in range(3)]
        hooked = R.random() < 0.5
        vals = list(leaves)
        for j in range(R.randint(2, 6)):
            v = random_op(R, vals, vals, OPS)
            if hooked and R.random() < 0.5:
                v.register_hook(lambda g, j=j: log.append((j, round(g.item(), 9))))
            vals.append(v)
        inputs = R.sample(vals, R.randint(1, 3))
        roots = [R.choice(vals[3:])] + ([R.choice(vals)] if R.random() < 0.4 else [])
        try:
            if use_grad:
                res = [None if g is None else round(g.item(), 9) for g in B.grad(roots, inputs, allow_unused=True)]
            else:
                B.backward(roots, inputs=inputs)
                res = [None if v.grad is None else round(v.grad.item(), 9) for v in inputs if v.is_leaf or v.retains_grad]
        except Exception as e:
            res = type(e).__name__ + ": " + str(e).split("\n")[0]
        rec(f"{'grad' if use_grad else 'backward'} seed {seed}: values", str((res, [None if l.grad is None else round(l.grad.item(), 9) for l in leaves], log)))
