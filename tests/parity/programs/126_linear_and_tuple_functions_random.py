"""Random small graphs mixing nn.Linear (one node with several outputs, which the engine's short loop
now runs), a custom Function returning a tuple (x*y, x+y), products, sums and sin, over four leaves:
one to three roots, backward (retain_graph) or grad(); in half of them tensor hooks on the leaves and
on some outputs log their order.  Recorded: the leaves' .grad (or grad()'s results) and the hook log.
Not their versions: a leaf fed through torch's nn.Linear gets a view of the stacked input's gradient
(README, nn.Linear), whose version is not modelled."""

import random

def run(B, rec):
    F = B.autograd.Function
    class Two(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y
        @staticmethod
        def backward(ctx, ga, gb):
            x, y = ctx.saved_tensors
            return ga * y + gb, ga * x + gb
    lin = B.linear([[0.5, -1.0], [2.0, 0.25]], [0.1, -0.2])
    for seed in range(200):
        R = random.Random(seed)
        log = []
        leaves = [B.value(R.choice([0.5, 1.5, -2.0]), requires_grad=True) for _ in range(4)]
        hooked = R.random() < 0.5
        if hooked:
            for i, l in enumerate(leaves):
                l.register_hook(lambda g, i=i: log.append(("L", i, round(g.item(), 9))))
        vals = list(leaves)
        for j in range(R.randint(2, 7)):
            k = R.random()
            x, y = R.choice(vals), R.choice(vals)
            if k < 0.2:
                outs = list(Two.apply(x, y))
            elif k < 0.4:
                outs = lin([x, y])
            elif k < 0.6:
                outs = [x * y]
            elif k < 0.8:
                outs = [x + y]
            else:
                outs = [x.sin()]
            if hooked and R.random() < 0.4:
                outs[0].register_hook(lambda g, j=j: log.append(("N", j, round(g.item(), 9))))
            vals.extend(outs)
        roots = [R.choice(vals[4:]) for _ in range(R.randint(1, 3))]
        try:
            if R.random() < 0.75:
                B.backward(roots, retain_graph=True)
                res = [None if l.grad is None else round(l.grad.item(), 9) for l in leaves]
            else:
                res = [None if g is None else round(g.item(), 9) for g in B.grad(roots, leaves, allow_unused=True)]
        except Exception as e:
            res = type(e).__name__
        rec(f"seed {seed}", str((res, log)))
