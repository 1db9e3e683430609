"""ex15 train: the solution earns full marks, the stub nothing, and wrong answers lose points."""

import pytest

from exercise_grading import check_wrong, grade, solution_path, stub_path


# A correct loop written without optim.SGD and nn.mse_loss: same algorithm, other rounding.
BY_HAND = """
import micrograph
from micrograph import nn


def make_model(seed):
    micrograph.manual_seed(seed)
    return nn.MLP([2, 8, 1])


def train(model, inputs, targets, lr, steps):
    params = list(model.parameters())
    losses = []
    for _ in range(steps):
        rows = model(inputs)
        errors = [(row[0] - t[0]) * (row[0] - t[0]) for row, t in zip(rows, targets)]
        loss = micrograph.sum(errors) / len(errors)
        loss.backward()
        with micrograph.no_grad():
            for p in params:
                p -= lr * p.grad
        for p in params:
            p.grad = None
        losses.append(loss.item())
    return losses
"""


def test_loop_by_hand_full_marks(tmp_path):
    path = tmp_path / "ex15_train.py"
    path.write_text(BY_HAND)
    assert grade("ex15", path).full_marks


def test_solution_full_marks_stub_zero():
    assert grade("ex15", solution_path("ex15")).full_marks
    assert grade("ex15", stub_path("ex15")).score == 0


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex15_no_zero_grad", {"train returns one loss per step", "gradients are cleared every step",
                           "the loss falls on held-out data"}),
    ("ex15_unseeded_values", {"make_model seeds and builds MLP(2, 8, 1)", "train returns one loss per step"}),
    ("ex15_per_sample", {"train returns one loss per step", "one step is one SGD update",
                         "gradients are cleared every step", "the loss falls on held-out data"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex15", wrong, must_fail)
