"""How often micrograph's ``nn.Linear`` gives torch's numbers bit for bit, on cancellation-heavy layers.

Run with torch installed (``/root/.venvs/torch-ref/bin/python scripts/matmul_order_probe.py [cases] [seed]``
from the repository root).  Each case is a random layer (1-12 rows, 1-64 inputs, 1-16 outputs)
whose numbers mix ``±1e16``, ``±2**53``, small integers and random values, so that the order
of the additions decides the result; it counts the entries of the output, the input's
gradient, the weight's and the bias's gradient that equal torch's exactly (``repr``).
``micrograph/matmul_order.py`` quotes its results.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402

import micrograph as mg  # noqa: E402
from micrograph import nn  # noqa: E402

KINDS = ("forward", "input grad", "weight grad", "bias grad")


def _number(rng: random.Random) -> float:
    return rng.choice((1e16, -1e16, 1.0, -1.0, 0.5, 3.0, 2.0 ** 53, -(2.0 ** 52),
                       rng.uniform(-1e9, 1e9), rng.uniform(-1.0, 1.0)))


def _torch(x: list[list[float]], w: list[list[float]], b: list[float], g: list[list[float]]) -> list[list[float]]:
    torch.set_num_threads(1)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    layer = torch.nn.Linear(len(w[0]), len(w)).double()
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(w, dtype=torch.float64))
        layer.bias.copy_(torch.tensor(b, dtype=torch.float64))
    y = layer(xt)
    y.backward(torch.tensor(g, dtype=torch.float64))
    return [sum(y.tolist(), []), sum(xt.grad.tolist(), []), sum(layer.weight.grad.tolist(), []), layer.bias.grad.tolist()]


def _micrograph(x: list[list[float]], w: list[list[float]], b: list[float], g: list[list[float]]) -> list[list[float]]:
    layer = nn.Linear(len(w[0]), len(w))
    with mg.no_grad():
        for row, numbers in zip(layer.weight + [layer.bias], w + [b]):
            for p, number in zip(row, numbers):
                p.fill_(number)
    xs = [[mg.Value(v, requires_grad=True) for v in row] for row in x]
    y = layer(xs)
    mg.backward([v for row in y for v in row], [mg.Value(v) for row in g for v in row])
    return [[v.item() for row in y for v in row], [v.grad.item() for row in xs for v in row],
            [p.grad.item() for row in layer.weight for p in row], [p.grad.item() for p in layer.bias]]


def main(cases: int = 300, seed: int = 1) -> None:
    rng = random.Random(seed)
    equal, total = [0] * 4, [0] * 4
    for _ in range(cases):
        rows, n_in, n_out = rng.randint(1, 12), rng.choice((1, 2, 3, 5, 8, 9, 17, 33, 64)), rng.randint(1, 16)
        x = [[_number(rng) for _ in range(n_in)] for _ in range(rows)]
        w = [[_number(rng) for _ in range(n_in)] for _ in range(n_out)]
        b = [_number(rng) for _ in range(n_out)]
        g = [[_number(rng) for _ in range(n_out)] for _ in range(rows)]
        for i, (want, got) in enumerate(zip(_torch(x, w, b, g), _micrograph(x, w, b, g))):
            total[i] += len(want)
            equal[i] += sum(repr(a) == repr(c) for a, c in zip(want, got))
    for kind, e, t in zip(KINDS, equal, total):
        print(f"{kind}: {e} of {t} entries equal to torch's")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
