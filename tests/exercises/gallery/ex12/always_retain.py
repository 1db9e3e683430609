"""Wrong ex12: retain_graph=True everywhere, so the documents' error never shows."""

import micrograph
from micrograph import Value


def forward(net, rows):
    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]
    output = net(inputs)
    return inputs, output, micrograph.sum([v for row in output for v in row])


def second_backward_error(net, rows):
    _, _, loss = forward(net, rows)
    loss.backward(retain_graph=True)
    try:
        loss.backward()
    except RuntimeError as error:
        return error
    return None


def grads_twice(net, rows):
    _, _, loss = forward(net, rows)
    loss.backward(retain_graph=True)
    first = [p.grad.item() for p in net.parameters()]
    loss.backward()
    return first, [p.grad.item() for p in net.parameters()]

# names: the error returned is None
