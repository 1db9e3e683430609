""".grad across several passes on 150 random small graphs: one to three roots (repeats and leaves
among them, each with its own gradient), backward with or without retain_graph, or grad(); between
passes a leaf's ``.grad = None``, ``.grad.zero_()`` or an in-place change under no_grad.  After each
pass: every leaf's .grad value, version, and whether it is the object of the pass before (the
engine's short loop keeps no gradient records once every leaf has a .grad); grad()'s versions; the
error type when a pass fails.  Then the same graphs again with a tensor hook alive in the process
(the engine's full loop)."""

import random

from parity.helpers import plain_then_hooked, random_op

OPS = ((0.25, lambda x, y: x * y), (0.45, lambda x, y: x + y), (0.55, lambda x, y: x.sin()),
       (0.65, lambda x, y: x.exp() * 0.1), (0.72, lambda x, y: x.clone()), (0.8, lambda x, y: x - y),
       (0.88, lambda x, y: x.relu()), (None, lambda x, y: x * 2.0))


def run(B, rec):
    plain_then_hooked(B, rec, _graphs)


def _graphs(B, rec, label):
    for seed in range(150):
        R = random.Random(seed)
        leaves = [B.value(R.choice([0.5, 1.5, -2.0, 3.0]), requires_grad=True) for _ in range(3)]
        prev = [None] * 3
        out = []
        for step in range(4):
            vals = list(leaves)
            for _ in range(R.randint(1, 6)):
                vals.append(random_op(R, vals, vals, OPS))
            nroots = R.randint(1, 3)
            roots = [R.choice(vals[3:] if len(vals) > 3 and R.random() < 0.8 else vals) for _ in range(nroots)]
            mode = R.random()
            try:
                if mode < 0.7:
                    B.backward(roots, [B.value(float(R.randint(1, 3))) for _ in roots], retain_graph=R.random() < 0.5)
                else:
                    gs = B.grad(roots, leaves, allow_unused=True)
                    out.append(("grad", [None if g is None else (g.item(), g._version) for g in gs]))
            except Exception as e:
                out.append(("err", type(e).__name__))
            st = []
            for i, l in enumerate(leaves):
                g = l.grad
                st.append(None if g is None else (g.item(), g._version, g is prev[i]))
                prev[i] = g
            out.append(tuple(st))
            a = R.random()
            i = R.randrange(3)
            if a < 0.2:
                leaves[i].grad = None
            elif a < 0.35 and leaves[i].grad is not None:
                leaves[i].grad.zero_()
            elif a < 0.45:
                with B.no_grad():
                    leaves[i].mul_(1.0)
        rec(f"{label}seed {seed}", str(out))
