"""nn.Linear's numbers where the order of the additions decides them: layers of every shape from 1x1 to 12 rows x 17 inputs x 16 outputs, filled with 1e16, -1e16, 2**53, small and random numbers, and a random gradient for the output; the output, the input's, weights' and bias's gradients, as torch's kernels (MKL's dgemm, the sum over rows) add them, compared bit for bit where micrograph replays MKL's kernels exactly (fewer than 4 rows or 12 outputs); in bigger layers some entries differ in the last bit (micrograph/matmul_order.py says which), so there the numbers are compared as floats: a wrong order of cancelling additions still shows, a last-bit difference does not."""

import random


def bits(numbers):
    """Each number's exact bits (float.hex): compared as text, so no tolerance hides a last-bit difference."""
    return " ".join(x.hex() for x in numbers)


def run(B, rec):
    rng = random.Random(105)

    def number():
        return rng.choice((1e16, -1e16, 1.0, -1.0, 0.5, 3.0, 2.0 ** 53, -(2.0 ** 52),
                           rng.uniform(-1e9, 1e9), rng.uniform(-1.0, 1.0)))

    shapes = [(1, 1, 1), (1, 3, 4), (2, 3, 4), (1, 2, 8), (4, 2, 8), (4, 8, 1), (1, 10, 1), (2, 10, 1),
              (3, 10, 1), (6, 10, 1), (1, 16, 2), (1, 17, 3), (1, 12, 5), (1, 10, 7), (2, 9, 4), (3, 16, 8),
              (4, 17, 5), (2, 10, 6), (4, 3, 12), (8, 9, 12), (4, 17, 16), (12, 5, 13), (8, 2, 24), (9, 4, 3)]
    for rows, n_in, n_out in shapes:
        for case in range(2):
            name = f"{rows}x{n_in}x{n_out} #{case}"
            show = bits if rows < 4 or n_out < 12 else list  # see the docstring
            layer = B.linear([[number() for _ in range(n_in)] for _ in range(n_out)], [number() for _ in range(n_out)])
            x = [[B.value(number(), requires_grad=True) for _ in range(n_in)] for _ in range(rows)]
            y = layer(x)
            flat = [v for row in y for v in row]
            rec(f"{name}: output", show(v.item() for v in flat))
            B.backward(flat, [B.value(number()) for _ in flat])
            rec(f"{name}: input grad", show(v.grad.item() for row in x for v in row))
            rec(f"{name}: weight grad", show(p.grad.item() for row in layer.weight for p in row))
            rec(f"{name}: bias grad", show(p.grad.item() for p in layer.bias))
