"""sum and mean of more than 32,768 values: torch splits the sum into one piece per thread and adds the pieces' sums; with cancellation the result depends on the thread count, so both libraries are set to 1, 2 and 3 threads (and back), and the sums must agree bit for bit."""

import random


def run(B, rec):
    rng = random.Random(106)
    before = B.get_num_threads()
    try:
        for threads in (1, 2, 3):
            B.set_num_threads(threads)
            rec(f"threads {threads}", B.get_num_threads())
            for n in (32768, 32769, 40001, 65536, 98305):
                xs = [rng.choice((1e16, -1e16, 1.0, -1.0, 0.5, 3.0, rng.uniform(-1e9, 1e9))) for _ in range(n)]
                values = [B.value(x, requires_grad=i == 0) for i, x in enumerate(xs)]
                s = B.sum(values)
                rec(f"{threads} threads, sum of {n}", s.item().hex())
                rec(f"{threads} threads, mean of {n}", (s / n).item().hex())
                s.backward()
                rec(f"{threads} threads, {n}: first grad", values[0].grad)
        rec("set_num_threads(0)", lambda: B.set_num_threads(0))
        rec("set_num_threads(1.5)", lambda: B.set_num_threads(1.5))
    finally:
        B.set_num_threads(before)
