"""Correct ex15, other names and other valid calls: the network spelled as Sequential, the
gradients zeroed in place by the model, the update with sub_, the loss as float(...)."""

from micrograph import manual_seed, nn, no_grad


def make_model(seed):
    manual_seed(seed)
    return nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))


def train(net, xs, ys, lr, steps):
    history = []
    criterion = nn.MSELoss()
    for step in range(steps):
        net.zero_grad(set_to_none=False)
        error = criterion(net(xs), ys)
        error.backward()
        with no_grad():
            for weight in net.parameters():
                weight.sub_(weight.grad * lr)
        history.append(float(error))
    return history
