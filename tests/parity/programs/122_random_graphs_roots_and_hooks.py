"""Random small graphs (mul, add, sin, three-term sums over a few leaves and a constant) with one to four roots,
leaves and repeated values among them, a hook on every leaf and op logging the order it fires in: hook order,
.grad, and grad()'s answers, as torch runs them (the run order's fuzz: a root leaf also fed by another root
once got only its own gradient)."""

import random


def _graph(B, seed, hooks):
    rnd = random.Random(seed)
    log = []
    leaves = [B.value(rnd.uniform(0.5, 1.5), requires_grad=True) for _ in range(rnd.randint(1, 4))]
    for i, leaf in enumerate(leaves if hooks else []):
        leaf.register_hook(lambda g, i=i: log.append(("leaf", i, g.item())))
    pool = [*leaves, B.value(rnd.uniform(0.5, 1.5))]
    for k in range(rnd.randint(1, 8)):
        a, b, c = rnd.choice(pool), rnd.choice(pool), rnd.choice(pool)
        op = rnd.choice(["mul", "add", "sin", "sum3"])
        y = a * b if op == "mul" else a + b if op == "add" else a.sin() if op == "sin" else a + b + c
        if y.requires_grad and hooks:
            y.register_hook(lambda g, k=k: log.append(("op", k, g.item())))
        pool.append(y)
    roots = [rnd.choice([v for v in pool if v.requires_grad]) for _ in range(rnd.randint(1, 4))]
    grads = [B.value(rnd.choice([1.0, 2.0, -0.5])) for _ in roots]
    return leaves, roots, grads, log


def run(B, rec):
    for seed in range(60):
        leaves, roots, grads, log = _graph(B, seed, hooks=True)
        B.backward(roots, grads)
        rec(f"graph {seed}: hooks", log)
        rec(f"graph {seed}: grads", [leaf.grad for leaf in leaves])
    for seed in range(60, 100):
        leaves, roots, grads, log = _graph(B, seed, hooks=False)
        B.backward(roots, grads)
        rec(f"graph {seed}: grads, no hooks", [leaf.grad for leaf in leaves])
    for seed in range(100, 140):
        leaves, roots, grads, log = _graph(B, seed, hooks=seed % 2 == 0)
        rec(f"graph {seed}: grad()", B.grad(roots, leaves, grads, allow_unused=True))
        rec(f"graph {seed}: grad() hooks", log)
