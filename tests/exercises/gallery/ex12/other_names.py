"""Correct ex12, written differently: other names, the loss summed row by row (micrograph.sum of
each row's micrograph.sum), and micrograph.backward with retain_graph as a keyword."""

import micrograph
from micrograph import Value


def forward(net, rows):
    leaves = [[Value(number, requires_grad=True) for number in row] for row in rows]
    result = net(leaves)
    total = micrograph.sum([micrograph.sum(row) for row in result])
    return leaves, result, total


def second_backward_error(net, rows):
    loss = forward(net, rows)[2]
    loss.backward()
    failure = None
    try:
        loss.backward()
    except RuntimeError as caught:
        failure = caught
    return failure


def grads_twice(net, rows):
    loss = forward(net, rows)[2]
    params = list(net.parameters())
    micrograph.backward(loss, retain_graph=True)
    after_one = [float(p.grad.item()) for p in params]
    micrograph.backward(loss)
    after_two = [float(p.grad.item()) for p in params]
    return after_one, after_two
