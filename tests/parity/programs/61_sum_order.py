"""sum and mean of many values add in torch's order: with cancellation the result is torch's."""

import random


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
        rec(f"sum {name}", s)
        rec(f"sum {name} == left to right", s.item() == _left_to_right(xs))
        m = s / len(xs)
        rec(f"mean {name}", m)
        s.backward()
        rec(f"sum {name}: first grad", vals[0].grad)
    vals = [B.value(x, requires_grad=True) for x in (1e16, 3.0, -1e16, 3.0, 7.0)]
    y = B.sum([v * 2 for v in vals])
    rec("sum of products", y)
    y.backward()
    rec("sum of products: grads", tuple(v.grad for v in vals))


def _left_to_right(xs):
    total = 0.0
    for x in xs:
        total += x
    return total
