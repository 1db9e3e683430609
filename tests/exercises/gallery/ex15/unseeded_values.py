"""Wrong ex15: builds the model before seeding, and records the loss Values instead of floats."""

import micrograph
from micrograph import nn, optim


def make_model(seed):
    model = nn.MLP([2, 8, 1])
    micrograph.manual_seed(seed)
    return model


def train(model, inputs, targets, lr, steps):
    optimizer = optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss)
    return losses

# names: losses[0] is of type Value
