"""Wrong ex15: never clears the gradients, so each step follows the sum of all past gradients."""

import micrograph
from micrograph import nn, optim


def make_model(seed):
    micrograph.manual_seed(seed)
    return nn.MLP([2, 8, 1])


def train(model, inputs, targets, lr, steps):
    optimizer = optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = nn.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses

# names: gradient of an earlier pass
