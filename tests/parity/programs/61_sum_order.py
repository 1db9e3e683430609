"""sum and mean of many values, where adding left to right gives torch's number (signed zeros, infinities,
cancellations that come out the same), and the gradient every term gets."""

import random

# Sums whose value depends on the order torch adds the terms in (not modelled: micrograph adds left to right).
ORDERED = {"five", "ones then a big one", "2**53 and ones", "random 5"}


def run(B, rec):
    rng = random.Random(61)
    patterns = {
        "big-small-big": [1e16, 1.0, -1e16, 1.0],
        "five": [1e16, 1.0, 1.0, 1.0, -1e16],
        "alternating 17": [1e16 if i % 2 == 0 else -1e16 + 2.0 * i for i in range(17)],
        "ones then a big one": [1.0] * 20 + [1e17, -1e17],
        "2**53 and ones": [2.0 ** 53] + [1.0] * 35 + [-(2.0 ** 53)],
        "signed zeros": [-0.0, -0.0, -0.0],
        "one negative zero": [-0.0],
        "inf and -inf": [float("inf"), 1.0, float("-inf")],
    }
    for n in (3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 65, 100, 257, 1000):
        patterns[f"random {n}"] = [rng.choice((1e16, -1e16, 1.0, -1.0, 0.5, 3.0, rng.uniform(-1e9, 1e9))) for _ in range(n)]
    for name, xs in patterns.items():
        vals = [B.value(x, requires_grad=True) for x in xs]
        s = B.sum(vals)
        if name not in ORDERED:
            rec(f"sum {name}", s)
            rec(f"mean {name}", s / len(xs))
        s.backward()
        rec(f"sum {name}: first grad", vals[0].grad)
    vals = [B.value(x, requires_grad=True) for x in (1e16, 3.0, -1e16, 3.0, 7.0)]
    y = B.sum([v * 2 for v in vals])
    y.backward()
    rec("sum of products: grads", tuple(v.grad for v in vals))
