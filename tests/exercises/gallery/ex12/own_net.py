"""Wrong ex12: builds its own nn.Linear(n, 4) as the documents do, instead of using the net given,
and forgets retain_graph (catching the error)."""

import micrograph
from micrograph import Value, nn


def forward(net, rows):
    net = nn.Linear(len(rows[0]), 4)
    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]
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
    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]
    loss = micrograph.sum([v for row in net(inputs) for v in row])
    loss.backward()
    first = [p.grad.item() for p in net.parameters()]
    try:
        loss.backward()
    except RuntimeError:
        pass
    return first, [p.grad.item() for p in net.parameters()]
