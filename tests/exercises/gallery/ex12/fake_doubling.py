"""Wrong ex12: inputs that need no grad, and a "doubled" gradient computed, not backpropagated."""

import micrograph
from micrograph import Value


def forward(net, rows):
    inputs = [[Value(v) for v in row] for row in rows]
    output = net(inputs)
    return inputs, output, micrograph.sum([v for row in output for v in row])


def second_backward_error(net, rows):
    _, _, loss = forward(net, rows)
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as error:
        return error
    return None


def grads_twice(net, rows):
    _, _, loss = forward(net, rows)
    loss.backward()
    first = [p.grad.item() for p in net.parameters()]
    return first, [2 * g for g in first]
