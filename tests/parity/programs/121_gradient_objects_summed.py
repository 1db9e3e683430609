"""Gradient objects summed into before they are shared: .grad versions on 300 random graphs, no hooks.

A node's buffer may be summed into in place (one version each) before the node
passes that very tensor on (``+``), and a buffer holding a shared tensor may
receive a second gradient (then torch sums out of place and lets go of the
shared one at once).  Both decide whether a leaf's first ``.grad`` is kept or
copied and at which version.  Some leaves already have a ``.grad`` (accumulated
in place).  What is recorded: each leaf's gradient version and value, and what
zeroing ``w.grad`` does to the others (shared memory).
"""

import random

from parity.helpers import random_expr, versions_and_values

CUTS = (0.2, 0.2, 0.35, 0.4)  # leaf, unary, sum, * 3 (cumulated chances)


def run(B, rec):
    rng = random.Random(121)
    for i in range(300):
        expr = random_expr(rng, 6, "wxzab", "+-*++", CUTS)
        w, x, z = B.value(0.5, requires_grad=True), B.value(-1.25, requires_grad=True), B.value(2.0, requires_grad=True)
        earlier = rng.random() < 0.3
        if earlier:  # w and z already have a .grad: this pass adds into it
            (w * 1.0 + z * 1.0).backward()
        a, b = (w * 2).exp(), w + x
        y = eval(expr, {"B": B, "w": w, "x": x, "z": z, "a": a, "b": b})  # noqa: S307 - a generated expression
        if not y.requires_grad:
            continue
        key = f"{i} {expr}{' (w, z had .grad)' if earlier else ''}"
        y.backward()
        rec(f"{key}: grads", versions_and_values((w.grad, x.grad, z.grad)))
        if w.grad is not None:
            w.grad.zero_()
            rec(f"{key}: x, z after w.grad.zero_()", versions_and_values((x.grad, z.grad)))
