"""In-place changes between forward and backward on 150 random graphs (products, sums, exp, tanh,
division, relu, squares over four leaves and two constants): a constant, an intermediate value or
(under no_grad) a leaf changed after the graph saved it.  Recorded: whether backward (one to three
roots) succeeded or torch's version error text, and every leaf's .grad: a pass that fails
midway has written the leaves whose AccumulateGrad ran before the failing node, in torch's order.
Then again with a tensor hook alive (the engine's full loop)."""

import random

from parity.helpers import plain_then_hooked, random_op

OPS = ((0.3, lambda x, y: x * y), (0.45, lambda x, y: x + y), (0.55, lambda x, y: x.exp()),
       (0.65, lambda x, y: x.tanh()), (0.75, lambda x, y: x / y), (0.85, lambda x, y: x.relu()),
       (None, lambda x, y: x ** 2))


def run(B, rec):
    plain_then_hooked(B, rec, _graphs)


def _graphs(B, rec, label):
    for seed in range(150):
        R = random.Random(seed)
        leaves = [B.value(R.choice([0.5, 1.5, -2.0, 3.0]), requires_grad=True) for _ in range(4)]
        consts = [B.value(R.choice([0.25, 2.0])) for _ in range(2)]
        vals = list(leaves)
        for _ in range(R.randint(2, 8)):
            vals.append(random_op(R, vals, vals + consts, OPS))
        # in-place changes after the graph is built
        for _ in range(R.randint(0, 2)):
            t = R.random()
            if t < 0.4:
                R.choice(consts).add_(1.0)
            elif t < 0.8 and len(vals) > 5:
                v = R.choice(vals[4:-1])
                v.mul_(1.0)
            else:
                with B.no_grad():
                    R.choice(leaves).add_(0.5)
        roots = [vals[-1]] + [R.choice(vals[4:]) for _ in range(R.randint(0, 2))]
        try:
            B.backward(roots)
            res = "ok"
        except Exception as e:
            res = type(e).__name__ + ": " + str(e).split("\n")[0]
        rec(f"{label}seed {seed}: values", str((res, [None if l.grad is None else l.grad.item() for l in leaves])))
