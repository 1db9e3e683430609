"""Gradient objects on 240 random graphs: .grad versions, memory shared between .grads, hooks, grad().

Each graph mixes ``+ - *``, ``sum`` of lists, ``exp sin clone neg sum`` and
scalar factors over three leaves and one non-leaf; some get tensor hooks that
change the gradient in place, keep it, or return a new one.  What is recorded:
each gradient's version and value after ``backward()`` (or what ``grad()``
returns), what zeroing ``w.grad`` does to the others, the kept gradients.
"""

import random

from parity.helpers import random_expr, versions_and_values

CUTS = (0.25, 0.25, 0.4, 0.45)  # leaf, unary, sum, * 3 (cumulated chances)


def _hook(kind, kept):
    return {
        "mul_": lambda g: g.mul_(2),
        "add_": lambda g: g.add_(1),
        "keep": lambda g: kept.append(g),
        "new": lambda g: g * 3,
        "none": lambda g: None,
    }[kind]


def run(B, rec):
    rng = random.Random(72)
    for i in range(240):
        expr = random_expr(rng, 4, "wxza", "+-*", CUTS)
        hooks = {n: rng.choice(("mul_", "add_", "keep", "new", "none", "-", "-", "-", "-")) for n in "wxza"}
        mode = rng.choice(("backward", "grad"))
        w, x, z = B.value(0.5, requires_grad=True), B.value(-1.25, requires_grad=True), B.value(2.0, requires_grad=True)
        a = (w * 2).exp()
        kept = []
        for n, v in zip("wxza", (w, x, z, a)):
            if hooks[n] != "-":
                v.register_hook(_hook(hooks[n], kept))
        y = eval(expr, {"B": B, "w": w, "x": x, "z": z, "a": a})  # noqa: S307 - a generated expression
        if not y.requires_grad:
            continue
        key = f"{i} {expr} {''.join(h[0] for h in hooks.values())} {mode}"
        if mode == "backward":
            y.backward()
            rec(f"{key}: grads", versions_and_values((w.grad, x.grad, z.grad)))
            if w.grad is not None:
                w.grad.zero_()
                rec(f"{key}: x, z after w.grad.zero_()", versions_and_values((x.grad, z.grad)))
        else:
            rec(f"{key}: grad()", versions_and_values(B.grad(y, [w, x, z, a], allow_unused=True)))
        rec(f"{key}: kept", versions_and_values(kept))
